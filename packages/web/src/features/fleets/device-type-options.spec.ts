import { DEVICE_TYPES, deviceTypeContractData } from '@flotilla/model';
import { describe, expect, it } from 'vitest';
import { deviceTypeOptions } from './device-type-options';

const contract = (data: Record<string, unknown>) => ({ slug: 'x', type: 'hw.device-type', data });
const noPlan = { plan: undefined, needsMulticontainer: true };

describe('device-type options of the create dialog', () => {
  it('marks discontinued types unavailable and upcoming ones coming soon, both disabled', () => {
    const options = deviceTypeOptions(
      [
        { slug: 'old', name: 'Old', contract: contract({ state: 'discontinued' }) },
        { slug: 'new', name: 'New', contract: contract({ state: 'upcoming' }) },
        { slug: 'ok', name: 'Ok', contract: contract({ state: 'released' }) },
      ],
      noPlan,
    );
    expect(options.map((o) => [o.slug, o.state, o.disabled])).toEqual([
      ['old', 'noVersionDiscontinued', true],
      ['new', 'noVersionUpcoming', true],
      ['ok', 'ok', false],
    ]);
  });

  it('limits paid-only types on the free plan only', () => {
    const types = [{ slug: 'paid', name: 'Paid', contract: contract({ paidOnly: true }) }];
    expect(deviceTypeOptions(types, { plan: 'free', needsMulticontainer: true })[0]).toMatchObject({ state: 'needsPlanUpgrade', disabled: true });
    expect(deviceTypeOptions(types, { plan: 'team', needsMulticontainer: true })[0]).toMatchObject({ state: 'ok', disabled: false });
    expect(deviceTypeOptions(types, noPlan)[0]).toMatchObject({ state: 'ok' });
  });

  it('refuses single-container types when the application type runs several containers', () => {
    const types = [{ slug: 'single', name: 'Single', contract: contract({ multicontainer: false }) }];
    expect(deviceTypeOptions(types, noPlan)[0]).toMatchObject({ state: 'needsMulticontainerSupport', disabled: true });
    expect(deviceTypeOptions(types, { plan: undefined, needsMulticontainer: false })[0]).toMatchObject({ state: 'ok' });
  });

  it('puts the 64-bit Raspberry Pi 4 first and recommends the first ok option only', () => {
    const options = deviceTypeOptions(
      [
        { slug: 'aaa', name: 'Aaa', contract: contract({ state: 'discontinued' }) },
        { slug: 'bbb', name: 'Bbb' },
        { slug: 'raspberrypi4-64', name: 'Raspberry Pi 4', contract: contract({ state: 'upcoming' }) },
        { slug: 'ccc', name: 'Ccc', contract: null },
      ],
      noPlan,
    );
    expect(options.map((o) => o.slug)).toEqual(['raspberrypi4-64', 'aaa', 'bbb', 'ccc']);
    expect(options.filter((o) => o.recommended).map((o) => o.slug)).toEqual(['bbb']);
  });

  it('reads the states the seeded catalogue writes into the contracts', () => {
    const types = DEVICE_TYPES.map((dt) => ({ slug: dt.slug, name: dt.name, contract: contract({ ...deviceTypeContractData(dt) }) }));
    const bySlug = new Map(deviceTypeOptions(types, noPlan).map((o) => [o.slug, o]));
    expect(bySlug.get('raspberrypi4-64')).toMatchObject({ state: 'ok', recommended: true });
    expect(bySlug.get('fincm3')?.state).toBe('noVersionDiscontinued');
    // balena's catalogue has no single-container board: the Pi 1 / Zero is offered (issue 12).
    expect(bySlug.get('raspberry-pi')).toMatchObject({ state: 'ok', disabled: false });
    expect([...bySlug.values()].filter((o) => o.disabled).map((o) => o.slug).sort()).toEqual(['fincm3']);
  });
});
