import { isDeviceTypeDiscontinued } from '@flotilla/model';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { sdk } from '../../../lib/sdk';

export interface ApplicationWarningFacts {
  /** The default device type's name when it is discontinued. */
  discontinuedDeviceType: string | null;
  /** The application type when it is a legacy one. */
  legacyType: { id: number; name: string } | null;
}

/** What the application shell warns about (spec 2 §2): a discontinued device type, a legacy type. */
export async function getApplicationWarningFacts(applicationId: number): Promise<ApplicationWarningFacts> {
  const app = await sdk.pine.get({
    resource: 'application',
    id: applicationId,
    options: {
      $select: ['id'],
      $expand: {
        application_type: { $select: ['id', 'name', 'is_legacy'] },
        is_for__device_type: { $select: ['name', 'contract'] },
      },
    },
  });
  const deviceType = app?.is_for__device_type[0];
  const appType = app?.application_type[0];
  return {
    discontinuedDeviceType: deviceType && isDeviceTypeDiscontinued(deviceType.contract) ? deviceType.name : null,
    legacyType: appType?.is_legacy ? { id: appType.id, name: appType.name } : null,
  };
}

export const applicationWarningsQueryOptions = (applicationId: number) =>
  queryOptions({ queryKey: ['applications', applicationId, 'warnings'] as const, queryFn: () => getApplicationWarningFacts(applicationId) });

export function useApplicationWarnings(applicationId: number) {
  return useQuery(applicationWarningsQueryOptions(applicationId));
}
