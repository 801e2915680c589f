// error: 2:13
import fs = require("fs");
