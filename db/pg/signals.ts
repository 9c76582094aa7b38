import { randomBytes } from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import { clockOffsetFrom, clusterSignal, type ClockReading, type ClusterSignal, type Signals } from '@/lib/contract/cluster-signals';

/**
 * Several Hearth processes on one PostgreSQL database tell each other what happened with
 * LISTEN/NOTIFY (lib/turns/supervisor/cluster.ts says what they say). Each process keeps one
 * connection of its own for it: it LISTENs there and sends its NOTIFYs there, in order. The
 * connection's application_name marks it as Hearth's, so a process stopping can see whether
 * another is running to take its turns over.
 */

const CHANNEL = 'hearth_signals';
/** How a Hearth process's signal connection is named in pg_stat_activity. */
const APPLICATION_PREFIX = 'hearth-process ';
/** A lost connection is made again after this long (and again, until it is back). */
const RECONNECT_MS = 1000;
/** The database's clock is read again this often (a machine's clock may be set meanwhile). */
const CLOCK_EVERY_MS = 60_000;
/** Readings taken each time: the one with the shortest round trip counts. */
const CLOCK_READINGS = 3;

type Envelope = { from: string; signal: ClusterSignal };

/** The client's socket (pg has no ref/unref of its own). */
const socketOf = (client: pg.Client) =>
  (client as unknown as { connection?: { stream?: { ref?: () => void; unref?: () => void } } }).connection?.stream;

/**
 * The listening connection keeps no process alive while it only listens (a script or a test
 * ends when its work does; a server is kept by its own socket), but does while a query of its
 * own is under way, so the process waits for the answer.
 */
function holdWhileAsking(client: pg.Client) {
  let asking = 0;
  return async <T>(ask: () => Promise<T>): Promise<T> => {
    if (asking++ === 0) socketOf(client)?.ref?.();
    try {
      return await ask();
    } finally {
      if (--asking === 0) socketOf(client)?.unref?.();
    }
  };
}

export async function openPgSignals(
  url: string,
  {
    log = (m: string) => console.warn(m),
    localClock = Date.now,
  }: {
    log?: (message: string) => void;
    /** This process's clock, as its leases are computed (a test hands in one of its own). */
    localClock?: () => number;
  } = {},
): Promise<Signals> {
  // Within application_name's 63 bytes, prefix and all, or pg_stat_activity would not name it whole.
  const processId = `${os.hostname().slice(0, 20)}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const handlers = new Map<string, Set<(signal: ClusterSignal) => void>>();
  let client: pg.Client | undefined;
  let closed = false;
  /** Each connection's hold while it is asked something (holdWhileAsking). */
  const asks = new WeakMap<pg.Client, ReturnType<typeof holdWhileAsking>>();
  const ask = <T>(on: pg.Client, question: () => Promise<T>): Promise<T> => {
    const asking = asks.get(on);
    return asking ? asking(question) : question();
  };
  /** Events are announced by their latest number: several stored meanwhile are one NOTIFY (the follower reads them all). */
  const pendingEvents = new Map<string, Extract<ClusterSignal, { kind: 'event' }>>();
  const queue: ClusterSignal[] = [];
  let sending = false;
  /** The database's clock less this process's (Signals.clockOffsetMs). */
  let clockOffset = 0;

  const deliver = (signal: ClusterSignal) => {
    for (const handler of handlers.get(signal.library) ?? []) {
      try {
        handler(signal);
      } catch (err) {
        log(`a signal from another Hearth process failed here: ${(err as Error).message}`);
      }
    }
  };

  const connect = async (): Promise<void> => {
    const made = new pg.Client({ connectionString: url, application_name: APPLICATION_PREFIX + processId });
    made.on('notification', (message) => {
      if (message.channel !== CHANNEL || !message.payload) return;
      let envelope: Envelope;
      try {
        const raw = JSON.parse(message.payload) as { from?: unknown; signal?: unknown };
        const signal = clusterSignal.safeParse(raw.signal);
        // Anyone who may connect to the database may NOTIFY: what does not parse is not Hearth's.
        if (typeof raw.from !== 'string' || !signal.success) return;
        envelope = { from: raw.from, signal: signal.data };
      } catch {
        return;
      }
      if (envelope.from !== processId) deliver(envelope.signal);
    });
    made.on('error', (err) => {
      log(`the connection to the other Hearth processes failed: ${err.message}`);
    });
    made.on('end', () => {
      // Only the connection in use is made again, and only from here (a failed attempt also ends: reconnect() says so itself).
      if (client !== made) return;
      client = undefined;
      scheduleReconnect();
    });
    try {
      await made.connect();
      const asking = holdWhileAsking(made);
      asks.set(made, asking);
      await asking(() => made.query(`LISTEN ${CHANNEL}`));
      await readClock(made);
    } catch (err) {
      await made.end().catch(() => undefined);
      throw err;
    }
    if (closed) {
      await made.end().catch(() => undefined);
      return;
    }
    client = made;
  };
  /** Reads the database's clock against this process's (clock_timestamp(), not now(): the moment asked, not the transaction's start). */
  const readClock = async (on: pg.Client) => {
    const readings: ClockReading[] = [];
    for (let i = 0; i < CLOCK_READINGS; i++) {
      const asked = localClock();
      const { rows } = await ask(on, () => on.query<{ t: number }>(`SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS t`));
      readings.push({ asked, database: Number(rows[0].t), answered: localClock() });
    }
    clockOffset = clockOffsetFrom(readings);
  };
  /** An event to announce: only the turn's latest number goes out (an older one put back after a failure never replaces a newer). */
  const announceEvent = (signal: Extract<ClusterSignal, { kind: 'event' }>) => {
    const key = `${signal.library}\u0000${signal.turnId}`;
    const pending = pendingEvents.get(key);
    if (!pending || pending.seq < signal.seq) pendingEvents.set(key, signal);
  };
  /** Sends one signal on a connection. */
  const notify = (on: pg.Client, signal: ClusterSignal) =>
    on.query('SELECT pg_notify($1, $2)', [CHANNEL, JSON.stringify({ from: processId, signal } satisfies Envelope)]);
  /** Everything waiting to be sent, in order (the events after the rest), taken off the queue. */
  const takeWaiting = (): ClusterSignal[] => {
    const waiting = [...queue.splice(0), ...pendingEvents.values()];
    pendingEvents.clear();
    return waiting;
  };
  /** Signals left as this process stops without its connection: sent on a connection made for them (not named a Hearth process's). */
  const sendOnce = async (signals: ClusterSignal[]) => {
    const once = new pg.Client({ connectionString: url, application_name: 'hearth-leaving' });
    try {
      await once.connect();
      for (const signal of signals) await notify(once, signal);
    } catch (err) {
      log(`${signals.length} signal(s) to the other Hearth processes were not sent as this one stopped: ${(err as Error).message}`);
    } finally {
      await once.end().catch(() => undefined);
    }
  };
  /** A connection a query found broken, before its own 'end' said so: let go of it and make another. */
  const dropConnection = (lost: pg.Client) => {
    if (client !== lost) return;
    client = undefined;
    void lost.end().catch(() => undefined);
    scheduleReconnect();
  };
  let reconnecting = false;
  const scheduleReconnect = () => {
    if (closed || reconnecting) return;
    reconnecting = true;
    setTimeout(() => void reconnect(), RECONNECT_MS).unref();
  };
  const reconnect = async () => {
    reconnecting = false;
    if (closed || client) return;
    try {
      await connect();
      // What was announced while the connection was down is read again by whoever follows it.
      for (const library of handlers.keys()) deliver({ kind: 'resync', library });
      void flush();
    } catch (err) {
      log(`could not reach the other Hearth processes again: ${(err as Error).message}`);
      scheduleReconnect();
    }
  };

  /** The sending under way: closing waits for it. */
  let flushing: Promise<void> = Promise.resolve();
  const flush = (): Promise<void> => {
    if (!sending) flushing = send();
    return flushing;
  };
  const send = async () => {
    sending = true;
    try {
      while (client && (queue.length || pendingEvents.size)) {
        const batch = takeWaiting();
        for (const [i, signal] of batch.entries()) {
          const sender = client;
          try {
            await ask(sender, () => notify(sender, signal));
          } catch (err) {
            log(`could not tell the other Hearth processes (${signal.kind}): ${(err as Error).message}`);
            // Only a connection lost (no SQLSTATE: the socket closed; class 08; 57P0x, the server
            // ending it) is worth a new one: anything else the server said of this signal itself.
            const code = String((err as { code?: unknown }).code ?? '');
            if (code && !/^(08|57P)/.test(code)) continue;
            // The connection was lost: this signal and those after it go when it is back (a stop or
            // an approval must not be lost; one that went out after all is harmless twice).
            queue.unshift(...batch.slice(i).filter((s) => s.kind !== 'event'));
            for (const s of batch.slice(i)) if (s.kind === 'event') announceEvent(s);
            dropConnection(sender);
            return;
          }
        }
      }
    } finally {
      sending = false;
    }
  };

  await connect();
  const clockTimer = setInterval(() => {
    const on = client;
    if (on) void readClock(on).catch((err: Error) => log(`could not read the database's clock: ${err.message}`));
  }, CLOCK_EVERY_MS);
  clockTimer.unref();
  return {
    process: processId,
    send(signal) {
      if (closed) return;
      if (signal.kind === 'event') announceEvent(signal);
      else queue.push(signal);
      void flush();
    },
    listen(library, handler) {
      const set = handlers.get(library) ?? new Set();
      handlers.set(library, set);
      set.add(handler);
      return () => {
        set.delete(handler);
        if (!set.size) handlers.delete(library);
      };
    },
    async livingProcesses() {
      // Without its own connection this process cannot tell who is alive: it must not conclude anyone died.
      if (!client) throw new Error('the connection to the other Hearth processes is down');
      const on = client;
      const { rows } = await ask(on, () =>
        on.query<{ name: string }>(
          `SELECT application_name AS name FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE $1`,
          [`${APPLICATION_PREFIX}%`],
        ),
      );
      return [...new Set([processId, ...rows.map((r) => r.name.slice(APPLICATION_PREFIX.length))])];
    },
    clockOffsetMs: () => clockOffset,
    async close() {
      clearInterval(clockTimer);
      // Everything sent so far goes out first (a hand-over's word among them).
      while (client && (sending || queue.length || pendingEvents.size)) await flush();
      closed = true;
      const last = client;
      client = undefined;
      // Held open while it closes: otherwise a process with nothing else to do would exit with the close still pending.
      if (last) await ask(last, () => last.end()).catch(() => undefined);
      // Its connection was lost as it stopped: what is left goes on a connection of its own, once.
      const left = takeWaiting();
      if (left.length) await sendOnce(left);
    },
  };
}
