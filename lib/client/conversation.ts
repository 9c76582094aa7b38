import type { AttachmentInfo } from '@/lib/contract/responses';
import type { VoiceEvent } from './voice-activity';

/**
 * Conversation mode: hands-free turns. Hearth listens; the end of speech (the voice-activity
 * detector's) sends what was said as the next turn; the answer is spoken as it streams; then it
 * listens again. Speaking while Hearth answers or speaks cuts in: its voice stops at once (and
 * the turn, if it is still being written) and what is said now is the next turn.
 *
 * The page feeds it the detector's events and tells it when an answer began to sound and when
 * it is over; the deps do the rest (record, transcribe, send, stop Hearth's voice and turn).
 */

export type ConversationPhase = 'off' | 'listening' | 'hearing' | 'transcribing' | 'answering' | 'speaking';

/** From the end of speech (ms): to the transcript, to the answer's first token, to its first sound. */
export type VoiceFigures = { transcriptMs: number; firstTokenMs?: number; firstSoundMs?: number };

export type Recording = { stop(): Promise<Blob> };

export type Heard = { text: string; attachment?: AttachmentInfo };

export type ConversationDeps = {
  /** Starts recording the microphone (already open). */
  record(): Recording;
  /** The words heard, and the recording kept as an attachment when Keep recordings is on. */
  transcribe(audio: Blob): Promise<Heard>;
  /** Sends the words (with the kept recording) as the next turn; false when it was refused (the notice says why). */
  send(heard: Heard): Promise<boolean>;
  /** Stops Hearth's voice at once, and the turn if it is still being written. */
  interrupt(): void;
  now(): number;
  onPhase(phase: ConversationPhase): void;
  onError(message: string): void;
};

export class Conversation {
  phase: ConversationPhase = 'off';
  private recording: Recording | null = null;
  /** The turn of this conversation whose figures are being measured: from the end of its speech. */
  private spokeAt = 0;
  figures: VoiceFigures | null = null;

  constructor(private readonly deps: ConversationDeps) {}

  private set(phase: ConversationPhase) {
    this.phase = phase;
    this.deps.onPhase(phase);
  }

  /** Whether the detector should ask more of a voice to count it: Hearth is answering, and a cut-in must be a person. */
  get strict(): boolean {
    return this.phase === 'answering' || this.phase === 'speaking';
  }

  start() {
    if (this.phase !== 'off') return;
    this.listen();
  }

  private listen() {
    this.recording = this.deps.record();
    this.set('listening');
  }

  /** The detector heard speech begin or end. */
  voice(event: VoiceEvent) {
    if (event === 'start') {
      if (this.phase === 'listening') this.set('hearing');
      else if (this.strict) {
        // Cut in: Hearth stops at once, and what is said now is the next turn.
        this.deps.interrupt();
        this.recording = this.deps.record();
        this.set('hearing');
      }
      return;
    }
    if (this.phase === 'hearing') void this.heard();
  }

  private async heard() {
    const recording = this.recording;
    this.recording = null;
    if (!recording) return;
    this.spokeAt = this.deps.now();
    this.set('transcribing');
    let heard: Heard;
    try {
      heard = await this.deps.transcribe(await recording.stop());
    } catch (err) {
      if (this.phase === 'off') return;
      this.deps.onError((err as Error).message);
      this.listen();
      return;
    }
    if (this.phase === 'off') return;
    // Nothing in it (a cough, a door): listen on.
    const text = heard.text.trim();
    if (!text) return this.listen();
    this.figures = { transcriptMs: this.deps.now() - this.spokeAt };
    this.set('answering');
    const sent = await this.deps.send({ ...heard, text });
    if (!sent && this.phase === 'answering') this.listen();
  }

  /** The answer's first token arrived. */
  firstToken() {
    if (this.figures && this.figures.firstTokenMs === undefined && this.strict) this.figures.firstTokenMs = this.deps.now() - this.spokeAt;
  }

  /** The answer began to sound. */
  sounding() {
    if (this.phase !== 'answering') return;
    if (this.figures && this.figures.firstSoundMs === undefined) this.figures.firstSoundMs = this.deps.now() - this.spokeAt;
    this.set('speaking');
  }

  /** The answer is over (said to its end, or it ended without words): Hearth listens again. */
  answered() {
    if (this.strict) this.listen();
  }

  stop() {
    const recording = this.recording;
    this.recording = null;
    void recording?.stop().catch(() => undefined);
    if (this.strict) this.deps.interrupt();
    this.set('off');
  }
}
