/**
 * The step journal of a turn: each completed step (model call result, tool result, decision)
 * is written as it completes, under a sequence number reserved when the step starts. A turn
 * restarted after a crash runs the same code again; a step whose number is in the journal
 * returns its stored result instead of running, so completed model calls and tool runs are
 * not repeated. Failed steps are not stored: they run again.
 */

export type StoredStep = { seq: number; kind: string; data: unknown };

export class StepJournal {
  private readonly stored = new Map<number, StoredStep>();
  private readonly lastStored: number;
  private seq = 0;
  private diverged = false;

  constructor(
    stored: StoredStep[],
    private readonly append: (step: StoredStep) => void | Promise<void>,
  ) {
    for (const s of stored) this.stored.set(s.seq, s);
    this.lastStored = stored.reduce((m, s) => Math.max(m, s.seq), 0);
  }

  /** True while the turn is re-walking steps it completed before a restart. */
  get replaying(): boolean {
    return !this.diverged && this.seq < this.lastStored;
  }

  async step<T>(kind: string, run: () => Promise<T>): Promise<{ value: T; replayed: boolean }> {
    const seq = ++this.seq;
    const prev = this.diverged ? undefined : this.stored.get(seq);
    if (prev) {
      if (prev.kind === kind) return { value: prev.data as T, replayed: true };
      // The code took another path than before the restart: stop replaying from here.
      this.diverged = true;
    }
    const value = await run();
    await this.append({ seq, kind, data: value });
    return { value, replayed: false };
  }
}
