import type { HostNetworkMessage } from '@meshwork/contracts';
import { fill, useI18n } from '../../i18n';

type MemoryShort = Extract<HostNetworkMessage, { code: 'memory_short' }>;

/**
 * The network cannot run its model: the devices online cannot hold it together. How much more
 * memory it needs stands out, with what the person can do about it.
 */
export function MemoryShortNotice({ message }: { message: MemoryShort }) {
  const { t, bytes } = useI18n();
  const needed = bytes(message.needed_bytes);
  // The model's name is Latin inside Persian words: isolated so it keeps its own direction.
  const model = `\u2068${message.model}\u2069`;
  return (
    <div role="alert" data-testid="network-message" className="space-y-1 rounded-md border border-red-300 bg-red-50 p-4 text-red-950">
      <p className="font-semibold">{fill(t.memoryShortTitle, { model })}</p>
      <p className="text-lg font-semibold" data-testid="memory-needed">
        {fill(t.memoryShortNeeded, { needed })}
      </p>
      <p className="text-sm">{fill(t.memoryShortAdvice, { needed })}</p>
    </div>
  );
}
