import type { Network } from '@meshwork/contracts';
import { useState } from 'react';
import { notifyFailure, notifySuccess } from '../../../shared/toast/notify';
import { Button } from '../../../shared/ui/button';
import { CheckboxField } from '../../../shared/ui/checkbox-field';
import { Dialog } from '../../../shared/ui/dialog';
import { Spinner } from '../../../shared/ui/spinner';
import { useKeepNetworks } from '../api/keep-networks';
import { formatLimit } from '../../../shared/format/billing-format';

/**
 * Choose which networks run when the plan allows fewer than the customer has. The server
 * suspends the others as needed (newest first), so choosing more than the limit is refused there.
 */
export function KeepNetworksDialog({ networks, maxNetworks, onClose }: { networks: Network[]; maxNetworks: number; onClose: () => void }) {
  const [kept, setKept] = useState(() => new Set(networks.filter((n) => n.status === 'active').map((n) => n.id)));
  const keep = useKeepNetworks();

  const toggle = (id: string) =>
    setKept((before) => {
      const after = new Set(before);
      if (!after.delete(id)) after.add(id);
      return after;
    });

  const save = () =>
    keep.mutate(
      { network_ids: [...kept] },
      {
        onSuccess: () => {
          notifySuccess('Networks updated');
          onClose();
        },
        onError: (error) => notifyFailure('Failed to choose the networks to keep', error),
      },
    );

  return (
    <Dialog
      title="Choose Networks to Keep"
      description={`Your plan runs ${formatLimit(maxNetworks)} network${maxNetworks === 1 ? '' : 's'}. The others stay suspended; nothing is deleted.`}
      onClose={onClose}
      dismissible={!keep.isPending}
    >
      <fieldset className="space-y-3">
        <legend className="sr-only">Networks to keep running</legend>
        {networks.map((network) => (
          <CheckboxField key={network.id} label={network.name} checked={kept.has(network.id)} onChange={() => toggle(network.id)} />
        ))}
      </fieldset>
      <div className="mt-6 flex justify-end gap-3">
        <Button variant="secondary" onClick={onClose} disabled={keep.isPending}>
          Cancel
        </Button>
        <Button onClick={save} disabled={keep.isPending || kept.size === 0}>
          {keep.isPending && <Spinner />}
          Keep Selected
        </Button>
      </div>
    </Dialog>
  );
}
