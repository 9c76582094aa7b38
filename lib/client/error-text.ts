/**
 * How a turn that ended badly is explained on the page: what happened, in a sentence a person
 * can act on, and where to go next. The server's own message says what happened at the time;
 * this is what the page can say from the code alone (after a reload), and the next step.
 */

export type TurnEnding = { what: string; next: string; settings?: boolean; retry: boolean };

const ENDINGS: Record<string, TurnEnding> = {
  model_unreachable: {
    what: 'The model server could not be reached.',
    next: 'Check that llama-server is running, or change the model servers in Settings, then retry.',
    settings: true,
    retry: true,
  },
  model_error: {
    what: 'The model server answered with an error.',
    next: "llama-server's log says why; retry once it is fixed.",
    retry: true,
  },
  model_stream_broken: {
    what: 'The model server stopped in the middle of the answer; what it had written is kept.',
    next: 'Retry for a whole answer.',
    retry: true,
  },
  context_overflow: {
    what: "The conversation no longer fits the model's context.",
    next: 'Start a new chat, delete earlier messages, or run llama-server with a larger -c.',
    retry: false,
  },
  budget_exhausted: {
    what: 'This reply used its whole budget before it could finish.',
    next: 'Raise the turn budget in Settings, or ask a narrower question, then retry.',
    settings: true,
    retry: true,
  },
  storage_full: {
    what: 'The disk is full: nothing new could be saved.',
    next: 'Free some space (or raise HEARTH_MAX_DB_MB), then retry.',
    retry: true,
  },
  internal: { what: 'Something went wrong inside Hearth.', next: "Hearth's log says what; retry.", retry: true },
};

export function turnEnding(code: string | null | undefined): TurnEnding {
  return (
    ENDINGS[code ?? ''] ?? {
      what: `This reply ended with an error (${code ?? 'unknown'}).`,
      next: 'Retry, or look at the server log.',
      retry: true,
    }
  );
}

/** The command the page suggests when no model server answers: the README's own (a test keeps them the same). */
export const LLAMA_SERVER_COMMAND =
  'llama-server -m your-model.gguf --jinja -c 32768 -np 2 --kv-unified --cache-ram 8192 --metrics --port 8080';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The README's command for the server Hearth is set to reach: on that URL's port, and
 * listening beyond loopback (llama-server's default) when the server is another machine.
 */
export function llamaServerCommand(url: string): string {
  let address: URL;
  try {
    address = new URL(url);
  } catch {
    return LLAMA_SERVER_COMMAND;
  }
  const port = address.port || (address.protocol === 'https:' ? '443' : '80');
  const host = LOOPBACK.has(address.hostname) ? '' : ' --host 0.0.0.0';
  return LLAMA_SERVER_COMMAND.replace(/ --port 8080$/, `${host} --port ${port}`);
}
