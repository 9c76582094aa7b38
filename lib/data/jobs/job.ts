import { fork } from 'node:child_process';

/**
 * One job in a Node process of its own: a script (plain JavaScript, found from the working
 * directory) gets one message and answers with one, under a heap limit and a deadline. Work on
 * untrusted input runs this way (reading a document, reading a table, a model's SQL): a process,
 * not a worker thread, because a worker that reaches its heap limit can take the whole server
 * down with it (V8's fatal out-of-memory), a child process only itself. Past the deadline it is
 * killed. The caller words each way it can end for its own user.
 */

export type JobEnd<T> =
  | { kind: 'answered'; reply: T }
  | { kind: 'late' }
  | { kind: 'failed'; message: string }
  /** It exited without answering: out of heap (V8 said so), or otherwise (`how`: its signal or code). */
  | { kind: 'exited'; outOfMemory: boolean; how: string }
  /** The caller's signal stopped it (a turn's tool call ran out of time, or the turn ended). */
  | { kind: 'stopped' };

const OUT_OF_MEMORY = /heap out of memory|Allocation failed/;

export function runJob<T>(
  script: string,
  message: unknown,
  limits: { memoryMb: number; timeMs: number; signal?: AbortSignal },
): Promise<JobEnd<T>> {
  return new Promise((resolve) => {
    if (limits.signal?.aborted) return resolve({ kind: 'stopped' });
    // Plain node (not the parent's loaders and flags), with its own heap limit; the message goes over IPC.
    const child = fork(script, [], {
      execArgv: [`--max-old-space-size=${limits.memoryMb}`],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    // Whether V8 said it ran out of heap. Its line comes before a native stack trace of any
    // length, so it is looked for as stderr arrives (across a chunk's edge), not in a tail kept.
    let stderr = '';
    let outOfMemory = false;
    child.stderr?.on('data', (c: Buffer) => {
      stderr = (stderr + c.toString()).slice(-2000);
      outOfMemory ||= OUT_OF_MEMORY.test(stderr);
    });
    let settled = false;
    const settle = (end: JobEnd<T>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      limits.signal?.removeEventListener('abort', stop);
      child.kill('SIGKILL');
      resolve(end);
    };
    const timer = setTimeout(() => settle({ kind: 'late' }), limits.timeMs);
    const stop = () => settle({ kind: 'stopped' });
    limits.signal?.addEventListener('abort', stop, { once: true });
    child.once('message', (reply: T) => settle({ kind: 'answered', reply }));
    child.once('error', (err) => settle({ kind: 'failed', message: err.message }));
    // 'close', not 'exit': the last of stderr (where V8 says it ran out of heap) can still be on
    // its way when the process has exited; 'close' comes once its streams are read to the end.
    child.once('close', (code, signal) => settle({ kind: 'exited', outOfMemory, how: signal ?? `code ${code}` }));
    child.send(message as never);
  });
}
