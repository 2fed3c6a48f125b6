/**
 * The Electron window's preload script (sandboxed: it may require only `electron`). It gives the
 * page `window.meshworkShell`, each method one IPC call the main process checks.
 */
import { contextBridge, ipcRenderer } from 'electron';
import type { ShellApi, ShellChannel } from '@meshwork/contracts';

const invoke = <Channel extends ShellChannel>(channel: Channel, ...args: Parameters<ShellApi[Channel]>) =>
  ipcRenderer.invoke(channel, ...args) as ReturnType<ShellApi[Channel]>;

const api: ShellApi = {
  getStartAtLogin: () => invoke('getStartAtLogin'),
  setStartAtLogin: (enabled) => invoke('setStartAtLogin', enabled),
};

contextBridge.exposeInMainWorld('meshworkShell', api);
