'use client';

/**
 * Questions that show what Hearth does differently: it looks things up, computes exactly, reads
 * files, remembers. The weather is asked for the place Settings names; with none set, a lookup
 * that needs no place is offered instead (the words "where I live" would be searched as they are).
 */
export function examples(location: string): string[] {
  const place = location.trim();
  return [
    place ? `What is the weather in ${place} today?` : 'What are the top news stories today?',
    'What is 17.5% of 2,340, plus 19% VAT?',
    'Remember that I am vegetarian.',
    'Summarise the PDF I attach, in five bullet points.',
  ];
}

/**
 * The empty chat: what Hearth is, and a few questions to start with (a click puts one in the
 * message box). On the very first run it also says where conversations are kept.
 */
export function Welcome({ firstRun, location, onPick }: { firstRun: boolean; location: string; onPick: (text: string) => void }) {
  return (
    <div data-testid="welcome" className="mx-auto max-w-xl space-y-4 pt-12 text-center">
      <h2 className="text-2xl font-semibold">What can I find out for you?</h2>
      <p className="text-stone-600 dark:text-stone-400">
        Hearth runs the model on your own machine and looks things up instead of offering to.
      </p>
      {firstRun && (
        <p data-testid="first-run" className="text-sm text-stone-600 dark:text-stone-400">
          Your conversations, files and what it remembers stay on this machine. The model servers, web search and more are in{' '}
          <a href="/settings" className="underline">
            Settings
          </a>
          .
        </p>
      )}
      <div className="grid gap-2 sm:grid-cols-2">
        {examples(location).map((text) => (
          <button
            key={text}
            type="button"
            data-testid="example-prompt"
            onClick={() => onPick(text)}
            className="rounded-xl border border-stone-300 px-3 py-2 text-left text-sm hover:bg-white dark:border-stone-700 dark:hover:bg-stone-900"
          >
            {text}
          </button>
        ))}
      </div>
    </div>
  );
}
