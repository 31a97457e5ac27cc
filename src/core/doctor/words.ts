// Small wordings doctor's findings share.

export function octal(mode: number): string {
  return `0${(mode & 0o777).toString(8)}`
}

export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}
