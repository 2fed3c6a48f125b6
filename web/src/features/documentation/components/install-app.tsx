import { Link } from 'react-router';
import { CodeBlock } from './code-block';
import { APP_WINDOW_URL, DATA_DIRECTORY, releaseFile } from './desktop-app-facts';
import { DocHeading, InlineCode, Steps, Ui } from './doc-text';
import { DocSection } from './doc-section';

const linkClasses = 'font-medium text-brand-700 hover:underline dark:text-brand-300';

// The * stands for the version downloaded: the commands work as printed from the folder the file is in.
const debInstall = `cd ~/Downloads
sudo apt install ./Meshwork-Desktop-v*.deb`;

const archiveRun = `cd ~/Downloads
tar -xzf Meshwork-Desktop-v*.tar.gz
cd meshwork-host-*-linux-x64
./meshwork-host`;

/** Installing the desktop app, per platform, up to a signed-in window (issue 30). */
export function InstallApp() {
  return (
    <DocSection id="install-the-app" title="Install the app">
      <p>
        Download the Meshwork desktop app from your{' '}
        <Link to="/dashboard" className={linkClasses}>
          dashboard
        </Link>{' '}
        or the{' '}
        <Link to="/download" className={linkClasses}>
          download page
        </Link>
        . The site offers the file for your computer first and lists the others. Install the app on every computer that should run models:
        the one that hosts a network and each one that joins it.
      </p>

      <DocHeading id="install-windows">Windows</DocHeading>
      <Steps>
        <li>
          Run <InlineCode>{releaseFile('exe')}</InlineCode>. It installs Meshwork for your Windows user only, so it needs no administrator
          rights. If Windows SmartScreen says it protected your PC, choose <Ui>More info</Ui>, then <Ui>Run anyway</Ui>.
        </li>
        <li>
          Tick <Ui>Start Meshwork when I sign in</Ui> if this computer should serve models whenever you are signed in to Windows, or leave
          it unticked to start Meshwork yourself.
        </li>
        <li>
          Finish with <Ui>Start Meshwork now</Ui> ticked. Later, start it from <Ui>Meshwork</Ui> in the Start menu or on the desktop.
        </li>
      </Steps>
      <p>
        To remove it, open Windows <Ui>Settings</Ui>, <Ui>Apps</Ui>, <Ui>Installed apps</Ui>, then <Ui>Meshwork</Ui> and <Ui>Uninstall</Ui>.
        It asks whether to remove your Meshwork data too: <Ui>No</Ui> keeps your models, sign-in and API keys in{' '}
        <InlineCode>{DATA_DIRECTORY.windows}</InlineCode> for a later installation, <Ui>Yes</Ui> deletes them.
      </p>

      <DocHeading id="install-linux">Linux (64-bit)</DocHeading>
      <p>
        On Debian, Ubuntu and their relatives, install the package <InlineCode>{releaseFile('deb')}</InlineCode> (the{' '}
        <InlineCode>*</InlineCode> below stands for its version):
      </p>
      <CodeBlock label="Install the .deb" code={debInstall} />
      <p>
        Then start <Ui>Meshwork</Ui> from your applications menu, or run <InlineCode>meshwork</InlineCode> in a terminal.{' '}
        <InlineCode>sudo apt remove meshwork-desktop</InlineCode> removes the app and leaves your data.
      </p>
      <p>
        On any other distribution, use the archive <InlineCode>{releaseFile('tar.gz')}</InlineCode>: it runs from wherever you unpack it,
        with nothing to install.
      </p>
      <CodeBlock label="Run from the archive" code={archiveRun} />

      <DocHeading id="first-start">First start and sign-in</DocHeading>
      <Steps>
        <li>
          The app opens its window by itself, in your web browser at <InlineCode>{APP_WINDOW_URL}</InlineCode>. Only this computer can open
          it. Closed the window? Start Meshwork again: the app already running opens it again.
        </li>
        <li>
          Choose <Ui>Sign in with your browser</Ui>. The window shows a code: enter it on this site&apos;s{' '}
          <Link to="/activate" className={linkClasses}>
            activation page
          </Link>{' '}
          while signed in (<Ui>Open the activation page</Ui> takes you there), name the computer and approve it.
        </li>
        <li>
          The window now shows your plan. Under <Ui>Models</Ui>, download the models you want: each is downloaded once, checked, and then
          runs without an internet connection.
        </li>
      </Steps>
      <p>
        The app keeps its models, its sign-in and your API keys in <InlineCode>{DATA_DIRECTORY.windows}</InlineCode> on Windows and{' '}
        <InlineCode>{DATA_DIRECTORY.linux}</InlineCode> on Linux.
      </p>
    </DocSection>
  );
}
