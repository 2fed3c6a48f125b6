import { Link } from 'react-router';
import { DISCOVERY_PORT, LOCAL_API_PORT, NETWORK_PORT } from './desktop-app-facts';
import { DocHeading, InlineCode, Steps, Ui } from './doc-text';
import { DocSection } from './doc-section';

const linkClasses = 'font-medium text-brand-700 hover:underline dark:text-brand-300';

/** What each column of the app's Devices table tells (desktop/ui's network screen). */
const deviceColumns: [string, string][] = [
  ['Role', 'Host or Client.'],
  ['Connection', 'whether the device is connected to the host now.'],
  ['Blocks', 'which of the model’s blocks the device runs.'],
  ['Free memory and Speed', 'what the host measured, and shares the blocks by.'],
];

/**
 * One model across several of the customer's computers: create on the host, join from the
 * others with the code, and what the network screen shows (desktop/README.md, "The network").
 */
export function FirstNetwork() {
  return (
    <DocSection id="your-first-network" title="Your first network">
      <p>
        A network runs one model across several of your computers on the same local network: each runs some of the model&apos;s blocks, and
        together they answer as one. One computer hosts it; the others join it as clients. Your plan sets how many networks you can have and
        how many clients each takes (
        <Link to="/pricing" className={linkClasses}>
          compare plans
        </Link>
        ).
      </p>

      <DocHeading id="create-a-network">Create it on the host</DocHeading>
      <Steps>
        <li>
          On the computer that will host,{' '}
          <a href="#install-the-app" className={linkClasses}>
            install the app
          </a>
          , sign in and download the model under <Ui>Models</Ui>: a network runs a model installed on its host.
        </li>
        <li>
          Open <Ui>Network</Ui>, give the network a name under <Ui>Create a network</Ui>, choose the model and press <Ui>Create network</Ui>
          . This computer now hosts it.
        </li>
        <li>
          The screen shows a <Ui>Join code</Ui> such as <InlineCode>K7QD-M2XP</InlineCode>. It is valid for 15 minutes; <Ui>New code</Ui>{' '}
          makes another.
        </li>
      </Steps>

      <DocHeading id="join-a-network">Join from your other computers</DocHeading>
      <Steps>
        <li>
          On each other computer on the same local network, install the app, sign in with the <strong>same account</strong> and download the
          same model: a device runs its blocks from its own copy.
        </li>
        <li>
          Open <Ui>Network</Ui>. Under <Ui>Join a network on this LAN</Ui> the app lists the networks it finds; pick yours (or type the
          host&apos;s address as its screen shows it, such as <InlineCode>192.168.1.20:{NETWORK_PORT}</InlineCode>), enter the join code and
          press <Ui>Join</Ui>.
        </li>
        <li>From then on the computer reconnects to its host by itself.</li>
      </Steps>
      <p>
        The host listens for its devices on TCP port <InlineCode>{NETWORK_PORT}</InlineCode> (encrypted) and announces the network on UDP
        port <InlineCode>{DISCOVERY_PORT}</InlineCode>: if a firewall sits between your computers, allow both on the local network.
      </p>

      <DocHeading id="network-screen">What the network screen shows</DocHeading>
      <p>
        The network&apos;s name, its model and status (<Ui>Active</Ui>, or <Ui>Suspended</Ui> when your plan allows fewer networks or no
        longer includes its model), how many clients it has of those your plan allows, and a row per device:
      </p>
      <ul className="list-disc space-y-1 pl-6">
        {deviceColumns.map(([column, what]) => (
          <li key={column}>
            <Ui>{column}</Ui>: {what}
          </li>
        ))}
      </ul>
      <p>
        The host can remove a client or <Ui>Stop hosting</Ui>; a client can <Ui>Leave network</Ui>. If a device drops out mid-answer, the
        host shares its blocks among the others and the answer goes on.
      </p>
      <p>
        Ask the network from the host: its <Ui>Chat</Ui>, or its{' '}
        <a href="#use-the-local-api" className={linkClasses}>
          local API
        </a>{' '}
        on port <InlineCode>{LOCAL_API_PORT}</InlineCode>. Answers run across every device of the network, and nothing leaves your local
        network.
      </p>
    </DocSection>
  );
}
