/** Where the CLI writes: normal output and diagnostics. */
export interface CliOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}
