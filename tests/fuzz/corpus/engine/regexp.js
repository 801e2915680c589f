const re = /(?<y>\d{4})-(?<m>\d\d)|(a+)+b/gdu; const s = '2024-05 aaaaaaaaac 1999-12';
console.log([...s.matchAll(re)].map((m) => [m.index, m.groups?.y, m.indices?.[0]]), s.replace(re, '$<m>/$<y>'), /(?<=\$)\d+(?!\.)/.exec('$42'), /[\p{L}--\p{Lu}]/v?.test?.('a'));
