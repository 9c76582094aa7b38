/**
 * The queue in front of the model server: as many turns run at once as it has slots
 * (llama-server's total_slots); the rest wait in order and are told their place.
 */
type Waiter = { id: string; admit: () => void; notify: (position: number) => void };

export class SlotQueue {
  private readonly running = new Set<string>();
  private readonly waiting: Waiter[] = [];

  constructor(private slots: number) {}

  setSlots(slots: number) {
    this.slots = Math.max(1, slots);
    this.advance();
  }

  /** Resolves when the turn may run; `notify` hears its place (1 = next) while it waits. */
  enter(id: string, notify: (position: number) => void): Promise<void> {
    if (this.running.size < this.slots && this.waiting.length === 0) {
      this.running.add(id);
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.waiting.push({ id, admit: resolve, notify });
      notify(this.waiting.length);
    });
  }

  /** A turn that finished or was stopped gives its slot (or its place) back. */
  leave(id: string) {
    const wasRunning = this.running.delete(id);
    const at = this.waiting.findIndex((w) => w.id === id);
    if (at >= 0) {
      const [w] = this.waiting.splice(at, 1);
      w.admit(); // the caller sees its abort signal and ends as cancelled
    }
    if (wasRunning || at >= 0) this.advance();
  }

  private advance() {
    while (this.running.size < this.slots && this.waiting.length > 0) {
      const next = this.waiting.shift()!;
      this.running.add(next.id);
      next.admit();
    }
    this.waiting.forEach((w, i) => w.notify(i + 1));
  }

  get stats() {
    return { running: this.running.size, waiting: this.waiting.length, slots: this.slots };
  }
}
