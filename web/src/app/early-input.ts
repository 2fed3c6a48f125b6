/**
 * A prerendered page shows its buttons and forms before React listens to them. What a visitor
 * does with them meanwhile is held here and done again once the page has woken up, rather than
 * lost (a button) or sent by the browser itself (a form: a GET with its fields, a password
 * among them, in the address). Links need nothing: the browser follows them.
 */
export interface EarlyInput {
  /** The page is hydrated and React answers input: stop holding, do what was held, once. */
  release(): void;
}

export function holdEarlyInput(document: Document): EarlyInput {
  const held: Array<() => void> = [];
  const onClick = (event: MouseEvent) => {
    const button = event.target instanceof Element ? event.target.closest('button') : null;
    // A submit button's click comes again as its form's submit, held below.
    if (!button || button.disabled || (button.type === 'submit' && button.form)) return;
    // React may listen already (part of the page is hydrated): it must see the click once, later.
    event.stopPropagation();
    held.push(() => button.isConnected && button.click());
  };
  const onSubmit = (event: SubmitEvent) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    event.preventDefault();
    event.stopPropagation();
    const submitter = event.submitter instanceof HTMLButtonElement && event.submitter.form === form ? event.submitter : null;
    held.push(() => form.isConnected && form.requestSubmit(submitter?.isConnected ? submitter : null));
  };
  document.addEventListener('click', onClick, true);
  document.addEventListener('submit', onSubmit, true);
  return {
    release() {
      document.removeEventListener('click', onClick, true);
      document.removeEventListener('submit', onSubmit, true);
      for (const action of held.splice(0)) action();
    },
  };
}
