import { DeviceActivity, HISTORY_STEP_MS, HISTORY_STEPS, LIVE_MS } from './device-activity';

describe('a network device’s work over time', () => {
  let clock: number;
  let told: number;
  let activity: DeviceActivity;

  beforeEach(() => {
    jest.useFakeTimers({ now: 1_000 * HISTORY_STEP_MS });
    clock = Date.now();
    told = 0;
    activity = new DeviceActivity(
      () => told++,
      () => clock,
    );
  });

  afterEach(() => {
    activity.close();
    jest.useRealTimers();
  });

  /** Moves both clocks: the one the rates read and the timers'. */
  const pass = (ms: number) => {
    clock += ms;
    jest.advanceTimersByTime(ms);
  };

  it('reads the tokens of the last five seconds as the rate now, per device', () => {
    activity.ran('self', 100); // a prompt
    pass(1_000);
    for (let i = 0; i < 10; i++) {
      activity.ran('self', 1);
      activity.ran('laptop', 1);
      pass(200);
    }
    expect(activity.of('self').tokens_per_second).toBe(110 / (LIVE_MS / 1000));
    expect(activity.of('laptop').tokens_per_second).toBe(10 / (LIVE_MS / 1000));
    pass(LIVE_MS - 2_500); // 5.5 s after the prompt, 2.5 s after the last token
    expect(activity.of('self').tokens_per_second).toBe(10 / (LIVE_MS / 1000)); // the prompt has left the window
    pass(2_500);
    expect([activity.of('self').tokens_per_second, activity.of('desk').tokens_per_second]).toEqual([0, 0]);
  });

  it('keeps ten minutes of ten-second steps, oldest first, the current one last', () => {
    activity.ran('self', 50);
    pass(HISTORY_STEP_MS);
    activity.ran('self', 20);
    const { history } = activity.of('self');
    expect(history).toHaveLength(HISTORY_STEPS);
    expect(history.slice(-2)).toEqual([50 / (HISTORY_STEP_MS / 1000), 20 / (HISTORY_STEP_MS / 1000)]);
    expect(history.slice(0, -2).every((rate) => rate === 0)).toBe(true);
    pass((HISTORY_STEPS - 1) * HISTORY_STEP_MS);
    expect(activity.of('self').history.at(0)).toBe(20 / (HISTORY_STEP_MS / 1000));
    pass(HISTORY_STEP_MS);
    expect(activity.of('self').history.every((rate) => rate === 0)).toBe(true);
  });

  it('keeps the highest memory measured in each step, null where none was, and forgets a device that left', () => {
    const MiB = 1024 * 1024;
    activity.measured('laptop', 900 * MiB);
    activity.measured('laptop', 950 * MiB);
    activity.measured('laptop', 920 * MiB);
    pass(2 * HISTORY_STEP_MS); // a step with no report between
    activity.measured('laptop', 700 * MiB);
    const { memory } = activity.of('laptop');
    expect(memory).toHaveLength(HISTORY_STEPS);
    expect(memory.slice(-3)).toEqual([950 * MiB, null, 700 * MiB]);
    expect(memory.slice(0, -3).every((bytes) => bytes === null)).toBe(true);
    expect(activity.of('self').memory.every((bytes) => bytes === null)).toBe(true);
    pass((HISTORY_STEPS - 1) * HISTORY_STEP_MS);
    expect(activity.of('laptop').memory.at(0)).toBe(700 * MiB);
    pass(HISTORY_STEP_MS);
    expect(activity.of('laptop').memory.every((bytes) => bytes === null)).toBe(true);

    activity.ran('laptop', 10);
    activity.measured('laptop', 800 * MiB);
    activity.forget('laptop');
    expect(activity.of('laptop')).toEqual({
      tokens_per_second: 0,
      history: Array(HISTORY_STEPS).fill(0),
      memory: Array(HISTORY_STEPS).fill(null),
    });
  });

  it('tells of the rates once a second while tokens pass, then once more when they fall to nothing, then stops', () => {
    for (let i = 0; i < 30; i++) {
      activity.ran('self', 1);
      pass(100);
    }
    expect(told).toBe(3); // three seconds of tokens, not thirty tokens
    pass(LIVE_MS + 1_000);
    const afterwards = told;
    expect(activity.of('self').tokens_per_second).toBe(0);
    pass(60_000);
    expect(told).toBe(afterwards);
    expect(jest.getTimerCount()).toBe(0);
  });
});
