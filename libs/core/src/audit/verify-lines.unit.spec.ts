import { bundleText } from './bundle-lines';
import { syntheticBundle } from './test-support/synthetic-bundle';
import { verifyBundle } from './verify-bundle';
import { verifyBundleText } from './verify-lines';

describe('a bundle of lines verified by slices', () => {
  const { bundle } = syntheticBundle(200, 7);
  const text = bundleText(bundle);

  it.each([1, 2, 3, 7, 64])('verifies the genuine bundle in %i slices as the one-document verifier does', (slices) => {
    const report = verifyBundleText(text, undefined, { slices, engines: false });
    expect(report).toEqual({ ...verifyBundle(bundle, undefined, { engines: false }), replayed: undefined });
  });
});
