// The health context's public face: what other contexts may use.
export { logConsumerNames } from './projection-health';
