/** The Knowledge page's form controls, one look for all its parts. */
export const inputClass = 'rounded-md border border-stone-300 bg-white px-2 py-1 text-sm dark:border-stone-700 dark:bg-stone-900';
export const buttonClass =
  'rounded-md border border-stone-300 px-2 py-1 text-sm hover:bg-white disabled:opacity-50 dark:border-stone-700 dark:hover:bg-stone-800';
