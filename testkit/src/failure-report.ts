/**
 * What a failed test prints beside its failure (testkit/jest-environment.cjs asks): each part of
 * the testkit a test file used adds a section here (the browser's open pages, the api's errors),
 * so a test that fails once in CI can be read from CI's log rather than guessed at.
 */
type Section = (test: string) => Promise<string>;

const holder = globalThis as { __meshworkFailureReports?: Map<string, Section> };

/** Adds (or replaces) the section `title`; it answers '' when it has nothing to say. */
export function addFailureSection(title: string, section: Section): void {
  holder.__meshworkFailureReports ??= new Map();
  holder.__meshworkFailureReports.set(title, section);
}
