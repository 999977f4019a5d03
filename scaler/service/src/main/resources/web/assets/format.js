// How numbers read on the page: the same figures as the CLI's status, rounded for the eye.

/** 1234.5 → "1,235", 12.34 → "12.3", null → "unknown". */
export function number(value) {
  if (value === null || value === undefined || Number.isNaN(value)) {
    return 'unknown';
  }
  return Math.abs(value) >= 100
    ? Math.round(value).toLocaleString('en')
    : value.toLocaleString('en', {maximumFractionDigits: 1});
}

export function perSecond(value) {
  return value === null || value === undefined ? 'unknown' : `${number(value)}/s`;
}

export function seconds(value) {
  if (value === null || value === undefined) {
    return 'unknown';
  }
  return value >= 100 ? `${number(value)} s` : `${value.toLocaleString('en', {maximumFractionDigits: 2})} s`;
}

export function clock(millis) {
  return new Date(millis).toLocaleTimeString('en-GB');
}
