class K { accessor = 5; declare = 6; readonly = 7; static = 8; get = 9; set = 10; async = 11; }
const k = new K();
console.log(k.accessor, k.declare, k.readonly, k.static, k.get, k.set, k.async);
