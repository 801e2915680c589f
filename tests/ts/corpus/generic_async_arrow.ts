const wrap = async <T>(x: T): Promise<T[]> => [x];
wrap(7).then((v) => console.log(v));
