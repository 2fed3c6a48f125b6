import englishMessages from 'ra-language-english';
import farsiMessages from 'ra-language-farsi';
import type { TranslationMessages } from 'react-admin';
import { fa } from '../i18n/fa';
import { mergeCatalogues } from './catalogue';

// English underneath, so a react-admin key newer than ra-language-farsi still reads as English, not as a key.
export const persian = mergeCatalogues(englishMessages, farsiMessages, fa) as TranslationMessages;
