import { gatewaySettings, parseSettings } from '#core/platform/config';
import { tierNames } from '#core/platform/tiers';

const parse = (env: Record<string, string>) => parseSettings(gatewaySettings, env);
const plans = JSON.stringify(Object.fromEntries(tierNames.map((t) => [t, `Prod-${t}`])));

describe("the gateway's configuration", () => {
  it('defaults to no plans (the stand-in), a budget of 9,000 and no shared keys', () => {
    expect(parse({})).toEqual({ GATEWAY_KEY_BUDGET: 9000, GATEWAY_KEY_NAME_PREFIX: 'tenant-api' });
  });

  it('reads the plans as JSON with every tier', () => {
    expect(parse({ GATEWAY_USAGE_PLANS: plans }).GATEWAY_USAGE_PLANS).toEqual(JSON.parse(plans));
  });

  it.each([
    ['GATEWAY_USAGE_PLANS', 'free=Prod-free', /GATEWAY_USAGE_PLANS must be JSON/],
    ['GATEWAY_USAGE_PLANS', JSON.stringify({ free: 'Prod-free' }), /GATEWAY_USAGE_PLANS\.starter/],
    ['GATEWAY_SHARED_KEYS', JSON.stringify(Object.fromEntries(tierNames.map((t) => [t, 'short']))), /GATEWAY_SHARED_KEYS\.free/],
    ['GATEWAY_ANONYMOUS_KEY', 'short', /GATEWAY_ANONYMOUS_KEY/],
    ['GATEWAY_KEY_BUDGET', '10001', /GATEWAY_KEY_BUDGET/],
    ['GATEWAY_KEY_BUDGET', 'many', /GATEWAY_KEY_BUDGET/],
  ])('refuses %s=%s at start, naming it', (name, value, message) => {
    expect(() => parse({ [name]: value })).toThrow(message);
  });
});
