export enum Status { Ok = 200 }
export enum Status { NotFound = 404 }
console.log(Status.Ok, Status.NotFound, Status[404]);
