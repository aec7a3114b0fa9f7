import { HttpClient, HttpError, parseJson } from './http-client.js';

/**
 * The device side of the wire contract (dialect §4.1–4.3): registration with a provisioning
 * key and the key exchange for a known uuid, the v3 target-state poll with ETag, and the
 * v3 state report. Stateless: every call names the key it uses.
 */

export interface RegisterInput {
  applicationId: number;
  uuid: string;
  deviceType: string;
  deviceApiKey: string;
  provisioningKey: string;
  supervisorVersion?: string;
  osVersion?: string;
  osVariant?: string;
  macAddress?: string;
}

/** `date`: the server's `Date` header (the health checks compare the clock with it). */
export type StatePoll = ({ status: 200; etag: string | null; body: unknown } | { status: 304 }) & { date?: string };

export class DeviceApi {
  /**
   * `pollHttp`: the client the target-state polls go through (default `http`). The simulator
   * gives polls sockets of their own: its thousands of devices share one process's sockets,
   * and polls queued behind other devices' slow state reports would miss their heartbeat,
   * which no real device (its own connections) does.
   */
  constructor(
    readonly http: HttpClient,
    private readonly pollHttp: HttpClient = http,
  ) {}

  /**
   * Registers the device; on 409 (uuid already known: a re-flashed or restarted device) does
   * the key exchange so `deviceApiKey` becomes this device's key. Returns the device id.
   */
  async register(input: RegisterInput): Promise<{ id: number; exchanged: boolean }> {
    const res = await this.http.request({
      method: 'POST',
      path: '/device/register',
      token: input.provisioningKey,
      body: {
        application: input.applicationId,
        uuid: input.uuid,
        device_type: input.deviceType,
        api_key: input.deviceApiKey,
        ...(input.supervisorVersion ? { supervisor_version: input.supervisorVersion } : {}),
        ...(input.osVersion ? { os_version: input.osVersion } : {}),
        ...(input.osVariant ? { os_variant: input.osVariant } : {}),
        ...(input.macAddress ? { mac_address: input.macAddress } : {}),
      },
    });
    if (res.status === 201 || res.status === 200) {
      const body = parseJson(res.text) as { id?: number };
      if (typeof body?.id !== 'number') throw new HttpError(res.status, res.text, 'register answered without a device id');
      return { id: body.id, exchanged: false };
    }
    if (res.status !== 409) throw new HttpError(res.status, res.text, `POST /device/register answered ${res.status}: ${res.text.slice(0, 200)}`);
    return { id: await this.exchangeKey(input), exchanged: true };
  }

  /** Key exchange (dialect §4.1 step 3): find the device, then install our key for it. */
  async exchangeKey(input: RegisterInput): Promise<number> {
    const path = `/v6/device?$select=id&$filter=${encodeURIComponent(`uuid eq '${input.uuid}'`)}`;
    let id: number | undefined;
    for (const token of [input.deviceApiKey, input.provisioningKey]) {
      const res = await this.http.request({ method: 'GET', path, token });
      if (res.status !== 200) continue;
      const body = parseJson(res.text) as { d?: { id: number }[] };
      id = body?.d?.[0]?.id;
      // Our own key already works: nothing to exchange.
      if (id !== undefined && token === input.deviceApiKey) return id;
      if (id !== undefined) break;
    }
    if (id === undefined) throw new HttpError(409, '', `device ${input.uuid} exists but is not visible to this provisioning key`);
    await this.http.expect(
      { method: 'POST', path: `/api-key/device/${id}/device-key`, token: input.provisioningKey, body: { apiKey: input.deviceApiKey } },
      [200, 201],
    );
    return id;
  }

  async pollState(uuid: string, deviceApiKey: string, etag: string | null): Promise<StatePoll> {
    const res = await this.pollHttp.expect(
      { method: 'GET', path: `/device/v3/${uuid}/state`, token: deviceApiKey, headers: etag ? { 'if-none-match': etag } : {} },
      [200, 304],
    );
    const date = typeof res.headers.date === 'string' ? { date: res.headers.date } : {};
    if (res.status === 304) return { status: 304, ...date };
    const tag = res.headers.etag;
    return { status: 200, etag: typeof tag === 'string' ? tag : null, body: parseJson(res.text), ...date };
  }

  async reportState(uuid: string, deviceApiKey: string, fields: Record<string, unknown>): Promise<void> {
    await this.http.expect({ method: 'PATCH', path: '/device/v3/state', token: deviceApiKey, body: { [uuid]: fields } }, [200, 204]);
  }

  /** The cloud link URL (ws:// or wss:// on the API's origin). */
  linkUrl(): string {
    const url = this.http.url('/device/v1/link');
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    return url.toString();
  }
}
