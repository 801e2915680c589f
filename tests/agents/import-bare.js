//! exit: 1
//! stderr: only relative imports
import fs from "fs";
export default async () => fs;
