import { TerminalRefused, type TerminalHost, type Tty, type TtyEvents, type TtySize } from '../core/terminal.js';

/**
 * A plausible line shell for virtual devices (issue 15: load tests and demos have
 * terminals): a prompt, echo of what is typed, line editing (backspace, Ctrl-C, Ctrl-D) and a
 * few commands — echo (with $((arithmetic))), uname, hostname, whoami, pwd, ls, date, uptime,
 * stty size, cat (echoes lines until Ctrl-D), clear, help, exit. No process, no timer: a
 * session is a few strings, so thousands of devices can each hold one.
 */
export interface SimulatedShellOptions {
  uuid: string;
  /** The services of the release the device runs (a terminal on another is refused). */
  services(): readonly string[];
}

const HELP = 'Commands: echo, uname [-a], hostname, whoami, pwd, ls, date, uptime, stty size, cat, clear, help, exit';

/** `$((6*7))` → `42`: integer + - * / % and parentheses, nothing else evaluated. */
export function expandArithmetic(text: string): string {
  return text.replace(/\$\(\(([0-9+\-*/%()\s]{1,200})\)\)/g, (whole, expr: string) => {
    const value = evaluate(expr);
    return value === undefined ? whole : String(value);
  });
}

function evaluate(expr: string): number | undefined {
  const tokens = expr.match(/\d+|[-+*/%()]/g) ?? [];
  let i = 0;
  const peek = () => tokens[i];
  const primary = (): number | undefined => {
    const t = tokens[i++];
    if (t === '(') {
      const v = sum();
      if (tokens[i++] !== ')') return undefined;
      return v;
    }
    if (t === '-') {
      const v = primary();
      return v === undefined ? undefined : -v;
    }
    return t !== undefined && /^\d+$/.test(t) ? Number(t) : undefined;
  };
  const product = (): number | undefined => {
    let v = primary();
    while (v !== undefined && (peek() === '*' || peek() === '/' || peek() === '%')) {
      const op = tokens[i++];
      const r = primary();
      if (r === undefined || ((op === '/' || op === '%') && r === 0)) return undefined;
      v = op === '*' ? v * r : op === '/' ? Math.trunc(v / r) : v % r;
    }
    return v;
  };
  const sum = (): number | undefined => {
    let v = product();
    while (v !== undefined && (peek() === '+' || peek() === '-')) {
      const op = tokens[i++];
      const r = product();
      if (r === undefined) return undefined;
      v = op === '+' ? v + r : v - r;
    }
    return v;
  };
  const v = sum();
  return i === tokens.length ? v : undefined;
}

class SimulatedShell implements Tty {
  private line = '';
  private catting = false;
  private ended = false;
  private readonly started = Date.now();

  constructor(
    private size: TtySize,
    private readonly events: TtyEvents,
    private readonly prompt: string,
    private readonly host: string,
    banner: string,
  ) {
    queueMicrotask(() => this.out(`${banner}\r\n${this.prompt}`));
  }

  private out(text: string): void {
    if (!this.ended) this.events.onData(text);
  }

  write(data: string): void {
    for (const ch of data) {
      if (this.ended) return;
      if (ch === '\r' || ch === '\n') {
        const line = this.line;
        this.line = '';
        this.out('\r\n');
        if (this.catting) this.out(`${line}\r\n`);
        else this.run(line.trim());
      } else if (ch === '\x7f' || ch === '\b') {
        if (this.line.length > 0) {
          this.line = this.line.slice(0, -1);
          this.out('\b \b');
        }
      } else if (ch === '\x03') {
        this.line = '';
        this.catting = false;
        this.out(`^C\r\n${this.prompt}`);
      } else if (ch === '\x04') {
        if (this.catting) {
          this.catting = false;
          this.out(this.prompt);
        } else if (this.line === '') this.exit('the shell exited');
      } else if (ch >= ' ' && this.line.length < 4096) {
        this.line += ch;
        this.out(ch);
      }
    }
  }

  private run(line: string): void {
    const [cmd = '', ...args] = line.split(/\s+/);
    const rest = line.slice(cmd.length).trim();
    let reply: string | null = null;
    switch (cmd) {
      case '':
        break;
      case 'echo':
        reply = expandArithmetic(rest).replace(/^(["'])(.*)\1$/, '$2');
        break;
      case 'uname':
        reply = args[0] === '-a' ? `Linux ${this.host} 6.1.77 #1 SMP PREEMPT aarch64 GNU/Linux` : 'Linux';
        break;
      case 'hostname':
        reply = this.host;
        break;
      case 'whoami':
        reply = 'root';
        break;
      case 'pwd':
        reply = '/';
        break;
      case 'ls':
        reply = 'bin  data  dev  etc  proc  root  sys  tmp  usr  var';
        break;
      case 'date':
        reply = new Date().toUTCString();
        break;
      case 'uptime':
        reply = `up ${Math.floor((Date.now() - this.started) / 1000)} s, load average: 0.08, 0.03, 0.01`;
        break;
      case 'stty':
        reply = args[0] === 'size' ? `${this.size.rows} ${this.size.cols}` : 'stty: only `stty size` here';
        break;
      case 'cat':
        if (args.length === 0) {
          this.catting = true;
          return;
        }
        reply = `cat: ${args[0]}: No such file or directory`;
        break;
      case 'clear':
        this.out('\x1b[H\x1b[2J');
        break;
      case 'help':
        reply = HELP;
        break;
      case 'exit':
        return this.exit('the shell exited');
      default:
        reply = `sh: ${cmd}: not found`;
    }
    this.out(`${reply === null ? '' : `${reply}\r\n`}${this.prompt}`);
  }

  private exit(reason: string): void {
    if (this.ended) return;
    this.out('exit\r\n');
    this.ended = true;
    this.events.onExit(reason);
  }

  resize(size: TtySize): void {
    this.size = size;
  }
  pause(): void {}
  resume(): void {}
  close(): void {
    this.ended = true;
  }
}

export function simulatedTerminals(o: SimulatedShellOptions): TerminalHost {
  const short = o.uuid.slice(0, 7);
  return {
    open(service, size, events) {
      if (service === null) {
        return Promise.resolve(new SimulatedShell(size, events, `root@${short}:~# `, short, `Welcome to the simulated device ${short}`));
      }
      if (!o.services().includes(service)) return Promise.reject(new TerminalRefused(`this device runs no service named ${service}`));
      return Promise.resolve(new SimulatedShell(size, events, `/${service} # `, `${service}-${short}`, `Simulated container of service ${service}`));
    },
  };
}
