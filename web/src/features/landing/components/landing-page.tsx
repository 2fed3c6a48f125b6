import { ClosingCta } from './closing-cta';
import { Hero } from './hero';
import { HowItWorks } from './how-it-works';
import { KeyFeatures } from './key-features';

/** The landing page of spec section 2: hero, Key Features & Benefits, How it Works, closing call to action. */
export function LandingPage() {
  return (
    <>
      <Hero />
      <KeyFeatures />
      <HowItWorks />
      <ClosingCta />
    </>
  );
}
