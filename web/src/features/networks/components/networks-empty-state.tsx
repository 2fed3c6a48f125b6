import { LinkButton, Button } from '../../../shared/ui/button';
import { Card } from '../../../shared/ui/card';

/** No network yet: the three steps to the first one. */
export function NetworksEmptyState({ onCreate }: { onCreate: () => void }) {
  return (
    <Card className="p-8 text-center">
      <h2 className="text-lg font-semibold text-slate-900 dark:text-white">No networks yet</h2>
      <ol className="mx-auto mt-4 max-w-md list-decimal space-y-2 pl-5 text-left text-sm text-slate-600 dark:text-slate-400">
        <li>Download the desktop app and install it on the computer that will host your model.</li>
        <li>Sign the app in: it shows a code you approve on this site.</li>
        <li>Create a network here and choose that computer as its host.</li>
      </ol>
      <div className="mt-6 flex justify-center gap-3">
        <LinkButton to="/download" variant="secondary">
          Download the App
        </LinkButton>
        <Button onClick={onCreate}>Create Network</Button>
      </div>
    </Card>
  );
}
