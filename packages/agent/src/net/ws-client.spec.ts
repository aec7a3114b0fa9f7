import { describe, expect, it } from 'vitest';
import { decodeFrame, encodeFrame } from './ws-client.js';

/** A server frame (unmasked) as the server side would write it. */
function serverFrame(opcode: number, payload: Buffer, fin = true): Buffer {
  const len = payload.length;
  const head = len < 126 ? Buffer.from([(fin ? 0x80 : 0) | opcode, len]) : Buffer.from([(fin ? 0x80 : 0) | opcode, 126, len >> 8, len & 0xff]);
  return Buffer.concat([head, payload]);
}

describe('WebSocket framing', () => {
  it.each([5, 125, 126, 300, 70_000])('round-trips a masked client frame of %i bytes', (size) => {
    const payload = Buffer.alloc(size, 'x');
    payload.write('{"type":"result"}');
    const frame = encodeFrame(0x1, payload);
    expect(frame[1]! & 0x80).toBe(0x80); // clients must mask
    const decoded = decodeFrame(frame)!;
    expect(decoded).toMatchObject({ fin: true, opcode: 0x1, length: frame.length });
    expect(decoded.payload.equals(payload)).toBe(true);
  });

  it('waits for a complete frame and decodes back-to-back frames', () => {
    const a = serverFrame(0x1, Buffer.from('hello'));
    const b = serverFrame(0x9, Buffer.from('p'));
    const both = Buffer.concat([a, b]);
    expect(decodeFrame(both.subarray(0, 3))).toBeNull();
    const first = decodeFrame(both)!;
    expect(first.payload.toString()).toBe('hello');
    const second = decodeFrame(both.subarray(first.length))!;
    expect(second).toMatchObject({ opcode: 0x9 });
    expect(decodeFrame(serverFrame(0x1, Buffer.alloc(200)).subarray(0, 100))).toBeNull();
  });
});
