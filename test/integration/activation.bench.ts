import * as assert from 'node:assert/strict';
import { activateExtension, recordMetric } from '../support/editor/extension';

suite('Activation figures', () => {
  test('time spent in activate()', async () => {
    const { activationTimeMs } = await activateExtension();
    assert.equal(typeof activationTimeMs, 'number');
    recordMetric('activationTimeMs', activationTimeMs);
  });
});
