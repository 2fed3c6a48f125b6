import { LegalPage } from './legal-page';

/** /terms placeholder. */
export function TermsPage() {
  return (
    <LegalPage title="Terms of Service">
      <p>These terms govern your use of Meshwork: the website, the desktop app and the models delivered through them.</p>
      <p>The full terms are being finalised and will be published here. Questions in the meantime can go to our support team.</p>
    </LegalPage>
  );
}
