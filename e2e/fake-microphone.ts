import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LaunchOptions } from '@playwright/test';

/**
 * Chromium's fake microphone fed a WAV file made here (--use-file-for-fake-audio-capture), for
 * the voice tests. Chromium's own fake device plays a pure beep, which the microphone's noise
 * suppression (on, as Hearth asks for it) may take for a steady noise and remove; a voice-like
 * sound is heard as speech is.
 */

const RATE = 16_000;

/** A voice-like sound: a low hum with its overtones, rising and falling a few times a second as syllables do. */
function voice(t: number): number {
  const f0 = 140 + 15 * Math.sin(2 * Math.PI * 0.7 * t);
  let v = 0;
  for (let h = 1; h <= 8; h++) v += Math.sin(2 * Math.PI * f0 * h * t) / h;
  return 0.22 * v * (0.6 + 0.4 * Math.sin(2 * Math.PI * 4.5 * t));
}

/** A WAV of `seconds` (16 kHz, 16-bit, mono): the voice-like sound over each [from, to) span, silence elsewhere. */
export function voiceWav(name: string, seconds: number, spans: [from: number, to: number][]): string {
  const samples = new Int16Array(seconds * RATE);
  for (let i = 0; i < samples.length; i++) {
    const t = i / RATE;
    if (spans.some(([from, to]) => t >= from && t < to)) samples[i] = Math.round(Math.max(-1, Math.min(1, voice(t))) * 32767);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + samples.byteLength, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(RATE, 24);
  header.writeUInt32LE(RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(samples.byteLength, 40);
  const file = path.join(os.tmpdir(), `hearth-${name}-${process.pid}.wav`);
  fs.writeFileSync(file, Buffer.concat([header, Buffer.from(samples.buffer)]));
  return file;
}

/** Launch options whose microphone plays the file (looped by Chromium), allowed without asking. */
export function fakeMicrophone(wav: string): LaunchOptions {
  return {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${wav}`,
      '--autoplay-policy=no-user-gesture-required',
    ],
  };
}
