/**
 * The balena.yml contract of a repository offered through /deploy (spec 2 §2, §5, §9), as
 * `GET /deploy/v1/contract` answers it: `name` and `type` are required; `data.defaultDeviceType`
 * and `data.supportedDeviceTypes` are optional. Anything else in the file is ignored.
 */
export interface DeployContract {
  name: string;
  type: string;
  description?: string;
  version?: string;
  defaultDeviceType?: string;
  supportedDeviceTypes?: string[];
}
