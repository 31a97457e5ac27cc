// Label selectors by the grammar of k8s.io/apimachinery labels.Parse: test/unit/label-selector.test.ts
// checks cpcred's reading of them, test/integration/bad-input.test.ts the real API server's.
export const VALID_SELECTORS = [
  '',
  'env=prod',
  'env==prod',
  'env!=prod',
  'env=',
  'env',
  '!env',
  'env in (prod,staging)',
  'env notin (prod, staging)',
  'env in (prod,)',
  'tier=1,  env!=test , !legacy',
  'example.com/team=a-b_c.d',
  'count>3',
  'count<-1',
  'a in ()',
]
export const INVALID_SELECTORS: Array<[string, RegExp]> = [
  ['env=prod=x', /unexpected|expected/],
  ['env in prod', /expected "\(" after "in"/],
  ['env in (a b)', /expected "," or "\)"/],
  ['=prod', /expected a label key/],
  ['env=prod,', /trailing ","/],
  ['env=-prod', /is not a label value/],
  ['Bad_Prefix.com/x=1', /prefix/],
  ['env=pr od', /unexpected|expected/],
  ['count>three', /not a whole number/],
  [`env=${'x'.repeat(64)}`, /is not a label value/],
  ['a b', /unexpected "b" after "a"/],
]
