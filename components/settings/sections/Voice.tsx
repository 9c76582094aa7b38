'use client';

import { inputClass, Section, type SettingsForm } from '../form';

/** Settings → Voice: the speech servers, the voice, its speed, and whether answers are read aloud by themselves. */
export function VoiceSection({ form }: { form: SettingsForm }) {
  const { draft, set, field } = form;
  const text = (key: 'sttUrl' | 'sttModel' | 'ttsUrl' | 'ttsModel' | 'ttsVoice', label: string, placeholder: string, hint?: string) =>
    field(
      key,
      label,
      <input
        id={`setting-${key}-input`}
        className={inputClass}
        value={draft[key]}
        placeholder={placeholder}
        onChange={(e) => set(key, e.target.value)}
      />,
      hint,
    );
  return (
    <Section
      title="Voice"
      hint="Your own speech servers, over OpenAI's audio API: speech to text (llama-server with an audio model, whisper.cpp's server, faster-whisper) and text to speech (Kokoro-FastAPI, openedai-speech), or both behind llama-swap. Audio goes only to these servers and is not kept unless you turn on Keep recordings. Without them the page uses the browser's own voice, where it has one."
    >
      <div className="grid gap-3 sm:grid-cols-2">
        {text('sttUrl', 'Speech-to-text server', 'http://127.0.0.1:8080 (empty: the browser’s own)')}
        {text('sttModel', 'Transcription model', 'as the server lists it (empty: whisper-1)')}
        {text('ttsUrl', 'Text-to-speech server', 'http://127.0.0.1:8880 (empty: the browser’s own)')}
        {text('ttsModel', 'Speech model', 'kokoro, tts-1 … (empty: tts-1)')}
        {text('ttsVoice', 'Voice', 'af_heart, bm_george … (empty: the server’s)')}
        {field(
          'speechSpeed',
          'Speed',
          <input
            id="setting-speechSpeed-input"
            type="number"
            min={0.5}
            max={2}
            step={0.05}
            className={inputClass}
            value={draft.speechSpeed}
            onChange={(e) => set('speechSpeed', Number(e.target.value))}
          />,
          '1 is the voice’s own pace; 0.5 to 2.',
        )}
        {field(
          'autoSpeak',
          'Read answers aloud',
          <label className="flex items-center gap-2 text-sm">
            <input
              id="setting-autoSpeak-input"
              type="checkbox"
              checked={draft.autoSpeak}
              onChange={(e) => set('autoSpeak', e.target.checked, true)}
            />
            Read every answer aloud as it is written
          </label>,
        )}
        {field(
          'keepRecordings',
          'Keep recordings',
          <label className="flex items-center gap-2 text-sm">
            <input
              id="setting-keepRecordings-input"
              type="checkbox"
              checked={draft.keepRecordings}
              onChange={(e) => set('keepRecordings', e.target.checked, true)}
            />
            Keep what I say: the recording is attached to the message it sent, with its transcript
          </label>,
          'Off: audio goes only to the speech-to-text server and is not stored.',
        )}
      </div>
    </Section>
  );
}
