export interface AuditExportStatus {
  rows: number;
  lastId: number | null;
  headHash: string | null;
  startsAfter: string | null;
  broken: null | { id: number; line: number; reason: 'hash' | 'link' | 'organization' | 'order' };
}
export function jsonbText(value: unknown): string;
export function rowHash(row: Record<string, unknown>): string;
export function verifyExport(text: string): AuditExportStatus;
