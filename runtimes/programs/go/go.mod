module dispatchbench/dbgo

go 1.19
