'use client';

import { FileText } from 'lucide-react';
import { useEffect, useRef } from 'react';
import type { AttachmentInfo, MessageView, Rating } from '@/lib/contract/responses';
import type { LiveTurnState } from '@/lib/contract/turn-state';
import { AssistantMessage } from './AssistantMessage';
import { VoiceFiguresLine } from './ConversationBar';
import type { VoiceFigures } from '@/lib/client/conversation';
import { messageAnchor } from './hooks/useThread';
import { ImageThumb, isImage, NoVisionNote } from './Images';
import { EditQuestion, MessageActions } from './MessageActions';
import { Welcome } from './Welcome';

export type MessageListActions = {
  chooseVersion: (messageId: string) => void;
  /** A new answer to the same question; `model`: by another model, this once. */
  regenerate: (messageId: string, model?: string) => void;
  /** The models a new answer may be asked of ("Regenerate with…"). */
  models: string[];
  deleteMessage: (messageId: string) => void;
  /** Thumbs up or down on an answer (null takes them back). */
  rateAnswer: (messageId: string, rating: Rating | null) => void;
  /** The answer being read aloud (null: none). */
  reading: string | null;
  /** The figures of answers spoken in conversation mode, by message. */
  spoken: Record<string, VoiceFigures>;
  /** Reads an answer aloud, or stops when it is the one being read. */
  readAloud: (messageId: string, content: string) => void;
  editQuestion: (messageId: string, content: string) => void;
  /** The question being edited in place (null: none). */
  setEditing: (messageId: string | null) => void;
  /** Opens an attached file: an image full size, any other file's text with its download. */
  openAttachment: (file: AttachmentInfo) => void;
  /** An example question picked from the empty chat. */
  pickExample: (text: string) => void;
  /** The answer to a tool call waiting for the user. */
  answerApproval: (callId: string, allow: boolean, always: boolean) => Promise<void>;
};

type Props = {
  messages: MessageView[];
  live: LiveTurnState | null;
  /** The question sent, until the stored thread shows it. */
  pendingUser: string | null;
  editing: string | null;
  /** The message asked for (search, a link): brought into view once shown, then highlighted. */
  focusMessage: string | null;
  highlighted: string | null;
  onFocused: (messageId: string) => void;
  /** The model server says it sees no images: a note under questions that carry one. */
  visionOff: boolean;
  /** No thread yet at all: the welcome says how to begin. */
  firstRun: boolean;
  /** The user's place from Settings (the examples ask its weather); '' when none is set. */
  location: string;
  actions: MessageListActions;
};

function LiveAnswer({ live, onApproval }: { live: LiveTurnState; onApproval: MessageListActions['answerApproval'] }) {
  return (
    <AssistantMessage
      content={live.final ?? live.draft}
      streaming={!live.ended}
      status={live.error ? (live.error.code === 'cancelled' ? 'interrupted' : 'error') : undefined}
      error={live.error}
      stage={live.stage}
      queuePosition={live.queuePosition}
      loading={live.loading}
      toolCalls={live.toolCalls}
      decisions={live.decisions}
      setAside={live.setAside}
      thinking={live.thinking}
      approvals={live.approvals}
      onApproval={onApproval}
      calculation={live.calculation}
      remembered={live.remembered}
      stats={live.stats}
    />
  );
}

function UserMessage({ m, busy, visionOff, actions }: { m: MessageView; busy: boolean; visionOff: boolean; actions: MessageListActions }) {
  return (
    <div className="ml-auto w-fit max-w-[85%]">
      <div data-testid="user-message" className="whitespace-pre-wrap rounded-2xl bg-amber-100 px-4 py-2 dark:bg-amber-900/40">
        {m.content}
      </div>
      {m.attachments.length > 0 && (
        // items-start: a file's chip keeps its own height beside a taller image.
        <div className="mt-1 flex flex-wrap items-start justify-end gap-1">
          {m.attachments.map((a) =>
            isImage(a) ? (
              <ImageThumb key={a.id} image={a} onOpen={actions.openAttachment} testId="message-image" />
            ) : (
              <button
                key={a.id}
                type="button"
                data-testid="message-attachment"
                onClick={() => actions.openAttachment(a)}
                aria-label={`Open ${a.name}`}
                title={`Open ${a.name}`}
                className="inline-flex items-center gap-1 rounded-full border border-stone-300 px-2 py-0.5 text-xs hover:bg-white focus:outline-none focus-visible:ring-2 focus-visible:ring-amber-500 dark:border-stone-700 dark:hover:bg-stone-900"
              >
                <FileText className="h-3.5 w-3.5 shrink-0" />
                {a.name}
              </button>
            ),
          )}
        </div>
      )}
      {visionOff && m.attachments.some(isImage) && <NoVisionNote />}
      <MessageActions
        role="user"
        branch={m.branch}
        busy={busy}
        onChoose={actions.chooseVersion}
        onEdit={() => actions.setEditing(m.id)}
        onDelete={() => actions.deleteMessage(m.id)}
      />
    </div>
  );
}

function StoredAnswer({ m, busy, actions }: { m: MessageView; busy: boolean; actions: MessageListActions }) {
  return (
    <>
      <AssistantMessage
        content={m.content}
        streaming={false}
        status={m.status}
        errorCode={m.errorCode}
        toolCalls={m.toolCalls}
        decisions={m.decisions}
        setAside={m.setAside}
        thinking={m.thinking}
        model={m.model}
        calculation={m.calculation ?? undefined}
        remembered={m.remembered}
        stats={m.stats ?? undefined}
      />
      {actions.spoken[m.id] && <VoiceFiguresLine figures={actions.spoken[m.id]} />}
      <MessageActions
        role="assistant"
        branch={m.branch}
        busy={busy}
        retry={m.status === 'interrupted' || m.status === 'error'}
        onChoose={actions.chooseVersion}
        onRegenerate={(model) => actions.regenerate(m.id, model)}
        models={actions.models}
        rating={m.status === 'complete' ? (m.rating ?? null) : undefined}
        onRate={(rating) => actions.rateAnswer(m.id, rating)}
        reading={m.status === 'complete' && m.content.trim() ? actions.reading === m.id : undefined}
        onRead={() => actions.readAloud(m.id, m.content)}
        onDelete={() => actions.deleteMessage(m.id)}
      />
    </>
  );
}

/** The thread's messages on the branch shown, the turn being written, and the welcome of an empty chat. */
export function MessageList({
  messages,
  live,
  pendingUser,
  editing,
  focusMessage,
  highlighted,
  onFocused,
  visionOff,
  firstRun,
  location,
  actions,
}: Props) {
  const bottom = useRef<HTMLDivElement | null>(null);
  const liveAssistantId = live?.assistantMessageId;
  const liveInView = Boolean(liveAssistantId && messages.some((m) => m.id === liveAssistantId));
  const busy = Boolean(live && !live.ended);

  useEffect(() => {
    bottom.current?.scrollIntoView({ block: 'end' });
  }, [messages.length, live?.draft, live?.final, pendingUser]);

  // After the scroll to the end above: a message asked for (from search or a link) is brought into view and marked.
  useEffect(() => {
    if (!focusMessage) return;
    const el = document.getElementById(messageAnchor(focusMessage));
    if (!el) return;
    el.scrollIntoView({ block: 'center' });
    onFocused(focusMessage);
  }, [focusMessage, messages, onFocused]);

  return (
    <div className="flex-1 overflow-y-auto px-4 py-4" data-testid="messages">
      <div className="mx-auto max-w-3xl space-y-5">
        {messages.map((m) => (
          <div
            key={m.id}
            id={messageAnchor(m.id)}
            data-message-id={m.id}
            data-highlighted={highlighted === m.id ? 'true' : undefined}
            className={`scroll-mt-4 rounded-2xl ${highlighted === m.id ? 'ring-2 ring-amber-400 ring-offset-4 ring-offset-white dark:ring-offset-stone-950' : ''}`}
          >
            {m.role === 'user' && editing === m.id ? (
              <EditQuestion
                initial={m.content}
                onCancel={() => actions.setEditing(null)}
                onSend={(text) => actions.editQuestion(m.id, text)}
              />
            ) : m.role === 'user' ? (
              <UserMessage m={m} busy={busy} visionOff={visionOff} actions={actions} />
            ) : live && m.id === liveAssistantId ? (
              <LiveAnswer live={live} onApproval={actions.answerApproval} />
            ) : (
              <StoredAnswer m={m} busy={busy} actions={actions} />
            )}
          </div>
        ))}
        {pendingUser !== null && !liveInView && (
          <div
            data-testid="user-message"
            className="ml-auto w-fit max-w-[85%] whitespace-pre-wrap rounded-2xl bg-amber-100 px-4 py-2 dark:bg-amber-900/40"
          >
            {pendingUser}
          </div>
        )}
        {live && !liveInView && <LiveAnswer live={live} onApproval={actions.answerApproval} />}
        {messages.length === 0 && !live && pendingUser === null && (
          <Welcome firstRun={firstRun} location={location} onPick={actions.pickExample} />
        )}
        <div ref={bottom} />
      </div>
    </div>
  );
}
