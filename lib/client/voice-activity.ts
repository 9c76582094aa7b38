/**
 * When a person starts and stops speaking, from the microphone's loudness (an energy-based
 * detector, fed the level of each few milliseconds). A level well above the room's own noise
 * for a moment is speech; a stretch near the noise again is its end. The noise floor follows
 * the room while nobody speaks, so a fan or a quiet radio does not count. While Hearth itself
 * speaks (`strict`), speech must be louder and longer to count: echo cancellation takes most of
 * Hearth's voice out of the microphone, and what is left must not cut Hearth off.
 *
 * Why not a model (@ricky0123/vad-web's Silero): it needs onnxruntime-web's WebAssembly
 * (several megabytes, and 'wasm-unsafe-eval' in the page's Content-Security-Policy) for a
 * judgement loudness makes well enough at arm's length from the microphone.
 */

export type VoiceActivityOptions = {
  /** Speech must go on this long to count (ms). */
  startMs?: number;
  /** Quiet this long ends it (ms): the pause between sentences is shorter. */
  endMs?: number;
  /** Never speech below this level (RMS, 0–1), however quiet the room. */
  minLevel?: number;
  /** The first moments are taken as the room's noise (ms). */
  calibrateMs?: number;
  /** Longer than this is the room, not a person (a fan switched on): it ends, and becomes the noise (ms). */
  maxSpeechMs?: number;
  /** Speech is this many times the noise floor. */
  ratio?: number;
};

export type VoiceEvent = 'start' | 'end';

export function createVoiceActivity({
  startMs = 150,
  endMs = 900,
  minLevel = 0.015,
  ratio = 3,
  calibrateMs = 300,
  maxSpeechMs = 60_000,
}: VoiceActivityOptions = {}) {
  let floor = minLevel / ratio;
  let first: number | null = null;
  let calibration: number[] = [];
  let speechBegan = 0;
  let speaking = false;
  /** Since when the level has been above (or, speaking, below) the threshold; null when it is not. */
  let since: number | null = null;
  /** A dip shorter than this inside a word does not restart the count. */
  const GAP_MS = 120;
  let lastLoud = -Infinity;
  return {
    get speaking() {
      return speaking;
    },
    /** The level of the latest few milliseconds, at `at` (ms); says when speech starts or ends. */
    feed(level: number, at: number, strict = false): VoiceEvent | null {
      first ??= at;
      if (at - first < calibrateMs) {
        calibration.push(level);
        floor = calibration.reduce((a, b) => a + b, 0) / calibration.length;
        return null;
      }
      calibration = [];
      const threshold = Math.max(minLevel, floor * ratio) * (strict ? 2 : 1);
      const needed = strict ? startMs * 2 : startMs;
      if (!speaking) {
        if (level >= threshold) {
          if (since === null || at - lastLoud > GAP_MS) since = at;
          lastLoud = at;
          if (at - since >= needed) {
            speaking = true;
            speechBegan = since;
            since = null;
            return 'start';
          }
        } else {
          if (at - lastLoud > GAP_MS) since = null;
          // The room's noise, followed slowly.
          floor = floor * 0.95 + level * 0.05;
        }
        return null;
      }
      if (at - speechBegan > maxSpeechMs) {
        speaking = false;
        since = null;
        floor = level;
        return 'end';
      }
      // Speaking: a quieter level (a little below the start's) for endMs is the end.
      if (level >= threshold * 0.7) since = null;
      else {
        since ??= at;
        if (at - since >= endMs) {
          speaking = false;
          since = null;
          return 'end';
        }
      }
      return null;
    },
    /** Forgets a speech under way (Hearth stopped listening). */
    reset() {
      speaking = false;
      since = null;
    },
  };
}
