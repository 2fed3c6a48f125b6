import { LegalPage } from './legal-page';

/** /privacy placeholder. */
export function PrivacyPage() {
  return (
    <LegalPage title="Privacy Policy">
      <p>
        Meshwork runs models on your own devices: the prompts and documents you process stay on your local network. We keep only what an
        account needs, such as your email, username and plan.
      </p>
      <p>The full privacy policy is being finalised and will be published here.</p>
    </LegalPage>
  );
}
