import { pineGetOne } from '../../../lib/pine';
import { createBatchReasonChecker, type DeviceFacts } from '../batch-reasons';

/** One device's action facts: GET device(id) with its link, status and device type contract. */
export async function getDeviceActionFacts(id: number): Promise<DeviceFacts> {
  const d = await pineGetOne('device', id, { $select: ['is_online', 'overall_status'], $expand: { is_of__device_type: { $select: ['contract'] } } });
  if (!d) throw new Error('Device not found');
  return { is_online: d.is_online, overall_status: d.overall_status, contract: d.is_of__device_type[0]?.contract };
}

/**
 * The page-wide checker (one cache for the session): imported dynamically by the batch
 * actions when their menu opens, so it stays off the device table's first page.
 */
export const checkBatchReasons = createBatchReasonChecker(getDeviceActionFacts);
