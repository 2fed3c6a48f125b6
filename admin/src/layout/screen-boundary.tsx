import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ConsoleCrash } from './console-crash';
import { crashReportOf, newErrorId, reportCrash } from './crash-report';

interface ScreenBoundaryProps {
  /** The screen's name, as the crash report gives it (layout/screen-name.ts). */
  screen: string;
  /** Changes at every navigation: the crash screen then makes way for what was asked for (the same screen is tried again). */
  resetKey: string;
  children: ReactNode;
}

interface ScreenBoundaryState {
  crash: { errorId: string } | null;
}

/**
 * A screen's error boundary: when rendering the screen throws, the crash screen takes its
 * place (the menu and app bar stay), with a fresh error id that the report to the api carries.
 */
export class ScreenBoundary extends Component<ScreenBoundaryProps, ScreenBoundaryState> {
  override state: ScreenBoundaryState = { crash: null };

  static getDerivedStateFromError(): ScreenBoundaryState {
    return { crash: { errorId: newErrorId() } };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    // Read after the state above is set: the report carries the id the screen shows.
    const errorId = this.state.crash?.errorId ?? newErrorId();
    const { screen } = this.props;
    void reportCrash(crashReportOf({ errorId, screen, error, componentStack: info.componentStack, url: window.location.href }));
  }

  override componentDidUpdate(previous: ScreenBoundaryProps): void {
    if (this.state.crash && previous.resetKey !== this.props.resetKey) this.setState({ crash: null });
  }

  override render(): ReactNode {
    const { crash } = this.state;
    if (!crash) return this.props.children;
    return <ConsoleCrash key={crash.errorId} errorId={crash.errorId} onRetry={() => this.setState({ crash: null })} />;
  }
}
