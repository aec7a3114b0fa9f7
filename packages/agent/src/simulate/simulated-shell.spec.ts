import { describe, expect, it } from 'vitest';
import { TerminalRefused, type TtyEvents } from '../core/terminal.js';
import { expandArithmetic, simulatedTerminals } from './simulated-shell.js';

function recorder() {
  const out: string[] = [];
  const exits: string[] = [];
  const events: TtyEvents = { onData: (c) => out.push(String(c)), onExit: (r) => exits.push(r) };
  return { out, exits, events, text: () => out.join('') };
}
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('simulated shell', () => {
  const host = simulatedTerminals({ uuid: 'abcdef0123456789', services: () => ['main'] });

  it('prompts, echoes what is typed and answers echo $((6*7)) with 42', async () => {
    const r = recorder();
    const tty = await host.open('main', { cols: 80, rows: 24 }, r.events);
    await tick();
    expect(r.text()).toContain('/main # ');
    tty.write('echo $((6*7))\r');
    expect(r.text()).toContain('echo $((6*7))\r\n42\r\n/main # ');
  });

  it('stty size follows resize; unknown commands are not found; backspace edits the line', async () => {
    const r = recorder();
    const tty = await host.open(null, { cols: 80, rows: 24 }, r.events);
    tty.resize({ cols: 100, rows: 30 });
    tty.write('stty size\r');
    expect(r.text()).toContain('\r\n30 100\r\n');
    tty.write('lx\x7fs\r');
    expect(r.text()).toContain('bin  data');
    tty.write('frobnicate\r');
    expect(r.text()).toContain('sh: frobnicate: not found');
  });

  it('cat echoes lines until Ctrl-D; exit ends the session once', async () => {
    const r = recorder();
    const tty = await host.open('main', { cols: 80, rows: 24 }, r.events);
    tty.write('cat\rhello\r\x04exit\r');
    expect(r.text()).toContain('hello\r\nhello\r\n');
    expect(r.exits).toEqual(['the shell exited']);
    tty.write('echo more\r');
    expect(r.text()).not.toContain('more\r\n');
  });

  it('refuses a service the device does not run', async () => {
    await expect(host.open('other', { cols: 80, rows: 24 }, recorder().events)).rejects.toEqual(new TerminalRefused('this device runs no service named other'));
  });

  it('evaluates integer arithmetic only', () => {
    expect(expandArithmetic('$((6*7)) $((1+2*3)) $(((1+2)*3)) $((7/2)) $((1/0)) $((a+1))')).toBe('42 7 9 3 $((1/0)) $((a+1))');
  });
});
