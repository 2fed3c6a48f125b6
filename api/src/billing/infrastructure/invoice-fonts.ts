import { readFileSync } from 'node:fs';

export type Weight = 'regular' | 'bold';
type Family = 'noto' | 'vazirmatn';

/**
 * The faces an invoice is set in. pdfkit's built-in Helvetica has Latin-1 only, so a name in
 * another script printed as wrong glyphs. Noto Sans covers Latin, Cyrillic and Greek;
 * Vazirmatn the Arabic script (Persian, Arabic, Urdu). CJK is not covered: its Noto faces are
 * 5 to 10 MB a weight. pdfkit embeds only the glyphs a document uses.
 */
const FILES: Record<Family, Record<Weight, string>> = {
  noto: {
    regular: '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
    bold: '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
  },
  vazirmatn: {
    regular: '@expo-google-fonts/vazirmatn/400Regular/Vazirmatn_400Regular.ttf',
    bold: '@expo-google-fonts/vazirmatn/700Bold/Vazirmatn_700Bold.ttf',
  },
};

const fontName = (family: Family, weight: Weight) => `${family}-${weight}`;

let fontData: Map<string, Buffer> | null = null;

/** Makes the invoice faces available to `doc`, read from disk once per process. */
export function registerInvoiceFonts(doc: PDFKit.PDFDocument): void {
  fontData ??= new Map(
    Object.entries(FILES).flatMap(([family, weights]) =>
      Object.entries(weights).map(([weight, file]) => [fontName(family as Family, weight as Weight), readFileSync(require.resolve(file))]),
    ),
  );
  for (const [name, data] of fontData) doc.registerFont(name, data);
}

/** A stretch of one line set in one face: `rtl` runs are laid out right to left by fontkit. */
interface Run {
  family: Family;
  rtl: boolean;
  /** Arabic-Indic digits, which read left to right like any digits. */
  digits: boolean;
  text: string;
}

const ARABIC_DIGIT = /[\u0660-\u0669\u06F0-\u06F9]/u;
const ARABIC = /\p{Script=Arabic}/u;
const LETTER = /\p{L}/u;
const LETTER_OR_DIGIT = /[\p{L}\p{Nd}]/u;

/**
 * A line cut into runs by script, in logical order; `rtl` when the line starts in a
 * right-to-left script. Spaces and punctuation stay with the run they follow, so a Persian
 * phrase is one run that fontkit shapes and lays out right to left. Digits read left to right
 * even inside Arabic text, and fontkit reverses any run of Arabic-script characters: so other
 * digits join the Latin face's runs, and Arabic-Indic ones get runs of their own, written
 * reversed so that fontkit's reversal puts them back (in a right-to-left line: the rare
 * Arabic-Indic number in a left-to-right line gets its trailing space on the wrong side).
 */
export function scriptRuns(line: string): { runs: Run[]; rtl: boolean } {
  const runs: Run[] = [];
  let rtl: boolean | null = null;
  for (const char of line) {
    const last = runs[runs.length - 1];
    if (!LETTER_OR_DIGIT.test(char) && last) {
      last.text += char;
      continue;
    }
    const digits = ARABIC_DIGIT.test(char);
    const arabic = !digits && ARABIC.test(char);
    if (LETTER.test(char)) rtl ??= arabic;
    const run: Omit<Run, 'text'> = { family: arabic || digits ? 'vazirmatn' : 'noto', rtl: arabic, digits };
    if (last && last.family === run.family && last.rtl === run.rtl && last.digits === run.digits) last.text += char;
    else runs.push({ ...run, text: char });
  }
  for (const run of runs) {
    if (!run.digits) continue;
    // The digits reversed; what follows them stays, so that fontkit puts it on their left.
    const core = /^(.*\p{Nd})(\P{Nd}*)$/su.exec(run.text)!;
    run.text = [...core[1]!].reverse().join('') + core[2];
  }
  return { runs, rtl: rtl ?? false };
}

/** Where and how `write` sets its text: pdfkit's options, with the position and the weight. */
export type WriteOptions = PDFKit.Mixins.TextOptions & { weight?: Weight; x?: number; y?: number };

/**
 * Writes text as `doc.text` does, each line in runs of the face its script needs. A line that
 * starts in a right-to-left script has its runs in right-to-left order too (a run-level bidi:
 * enough for names and addresses). Font size and colour are the document's current ones.
 */
export function write(doc: PDFKit.PDFDocument, text: string, options: WriteOptions = {}): PDFKit.PDFDocument {
  const { weight = 'regular', x, y, ...textOptions } = options;
  if (text === '') return doc;
  const lines = text.split('\n');
  lines.forEach((line, lineIndex) => {
    const { runs, rtl } = scriptRuns(line);
    if (rtl) runs.reverse();
    if (runs.length === 0) runs.push({ family: 'noto', rtl: false, digits: false, text: ' ' });
    runs.forEach((run, runIndex) => {
      doc.font(fontName(run.family, weight));
      // Without features pdfkit lays out word by word, and so would put a right-to-left
      // run's words in left-to-right order: with them (none beyond fontkit's defaults), the
      // run is laid out whole.
      const features = run.family === 'vazirmatn' ? [] : textOptions.features;
      const runOptions = { ...textOptions, features, continued: runIndex < runs.length - 1 };
      if (lineIndex === 0 && runIndex === 0 && x !== undefined) doc.text(run.text, x, y, runOptions);
      else doc.text(run.text, runOptions);
    });
  });
  return doc;
}
