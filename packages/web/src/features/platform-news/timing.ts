/**
 * The dashboard's platform timings (spec 3 §4 Other banners and Connectivity, §9), and the
 * timers that keep them, written without React so unit tests drive them with fake timers.
 */

/** §9 "Dashboard version poll is 600000 ms". */
export const VERSION_POLL_MS = 600_000;
/** §9 "Status indicator is checked after 3000 ms". */
export const STATUS_FIRST_CHECK_MS = 3_000;
/** §9 "Status page poll is 60 s". */
export const STATUS_POLL_MS = 60_000;
/** §9 "Announcement delay is 4 s". */
export const ANNOUNCEMENT_DELAY_MS = 4_000;

/** What the version check listens on for focus (the window). */
export interface FocusSource {
  addEventListener(type: 'focus', listener: () => void): void;
  removeEventListener(type: 'focus', listener: () => void): void;
}

/**
 * Watches the served build's time stamp (GET /buildtime.txt): read at start (the stamp of the
 * build this page runs), then every `intervalMs`, and when the window regains focus once
 * `intervalMs` has passed since the last read (a laptop waking up). When a read differs from
 * the first one, `onNewBuild` is called once and the watch ends. Failed reads are skipped.
 * Returns a stop function.
 */
export function watchBuildTime(options: {
  read: () => Promise<string>;
  onNewBuild: (stamp: string) => void;
  intervalMs?: number;
  focus?: FocusSource;
}): () => void {
  const intervalMs = options.intervalMs ?? VERSION_POLL_MS;
  let loaded: string | undefined;
  let lastRead = Date.now();
  let stopped = false;
  const check = async () => {
    lastRead = Date.now();
    let stamp: string;
    try {
      stamp = (await options.read()).trim();
    } catch {
      return; // offline or the server restarting: the next poll tries again
    }
    if (stopped || stamp === '') return;
    if (loaded === undefined) loaded = stamp;
    else if (stamp !== loaded) {
      stop();
      options.onNewBuild(stamp);
    }
  };
  let timer = setInterval(() => void check(), intervalMs);
  const onFocus = () => {
    if (Date.now() - lastRead < intervalMs) return;
    clearInterval(timer);
    timer = setInterval(() => void check(), intervalMs);
    void check();
  };
  const stop = () => {
    stopped = true;
    clearInterval(timer);
    options.focus?.removeEventListener('focus', onFocus);
  };
  options.focus?.addEventListener('focus', onFocus);
  void check();
  return stop;
}

/**
 * Reads the status summary `firstDelayMs` after start, then every `intervalMs`; each answer
 * (or failure, as `undefined`) goes to `onStatus`. Returns a stop function.
 */
export function pollStatus<T>(options: {
  read: () => Promise<T>;
  onStatus: (status: T | undefined) => void;
  firstDelayMs?: number;
  intervalMs?: number;
}): () => void {
  let stopped = false;
  let interval: ReturnType<typeof setInterval> | undefined;
  const check = async () => {
    let status: T | undefined;
    try {
      status = await options.read();
    } catch {
      status = undefined;
    }
    if (!stopped) options.onStatus(status);
  };
  const first = setTimeout(() => {
    void check();
    interval = setInterval(() => void check(), options.intervalMs ?? STATUS_POLL_MS);
  }, options.firstDelayMs ?? STATUS_FIRST_CHECK_MS);
  return () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(interval);
  };
}

/** The announcement of GET /config/dashboard: its text, window (ISO instants, either open) and link. */
export interface Announcement {
  text: string;
  from: string | null;
  until: string | null;
  url: string | null;
}

/** Whether `now` lies inside the announcement's window (from inclusive, until exclusive). */
export function isAnnouncementActive(announcement: Announcement, now: number): boolean {
  const from = announcement.from ? Date.parse(announcement.from) : -Infinity;
  const until = announcement.until ? Date.parse(announcement.until) : Infinity;
  return now >= from && now < until;
}

/** The local-storage key remembering that this announcement (its text and window) was dismissed. */
export function announcementDismissalKey(announcement: Announcement): string {
  const id = `${announcement.text}|${announcement.from ?? ''}|${announcement.until ?? ''}`;
  let hash = 5381;
  for (let i = 0; i < id.length; i++) hash = ((hash * 33) ^ id.charCodeAt(i)) >>> 0;
  return `flotilla.announcementDismissed.${hash.toString(36)}`;
}

/** setTimeout's longest delay (about 24.8 days); a later change of state is not scheduled. */
const MAX_DELAY_MS = 2 ** 31 - 1;

/**
 * Shows the announcement `delayMs` after load when inside its window, or when its window opens
 * later while the page stays open; hides it when the window closes. Returns a stop function.
 */
export function scheduleAnnouncement(options: {
  announcement: Announcement;
  onChange: (visible: boolean) => void;
  delayMs?: number;
}): () => void {
  const { announcement, onChange } = options;
  const timers: ReturnType<typeof setTimeout>[] = [];
  const at = (time: number, run: () => void) => {
    const delay = time - Date.now();
    if (delay <= MAX_DELAY_MS) timers.push(setTimeout(run, Math.max(0, delay)));
  };
  const shownAt = Date.now() + (options.delayMs ?? ANNOUNCEMENT_DELAY_MS);
  const from = announcement.from ? Date.parse(announcement.from) : -Infinity;
  const until = announcement.until ? Date.parse(announcement.until) : Infinity;
  if (until > shownAt) {
    at(Math.max(shownAt, from), () => onChange(isAnnouncementActive(announcement, Date.now())));
    if (until !== Infinity) at(until, () => onChange(false));
  }
  return () => timers.forEach(clearTimeout);
}
