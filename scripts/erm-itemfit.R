# Reference infit/outfit from eRm (CML Rasch fit) for the cross-check in
# src/core/psych/erm.test.ts. Reads a 0/1 matrix (rows LLMs, columns items,
# header row) and writes item, infit, outfit, z_infit, z_outfit as CSV.
#   Rscript scripts/erm-itemfit.R matrix.csv erm.csv
args <- commandArgs(trailingOnly = TRUE)
suppressPackageStartupMessages(library(eRm))
X <- as.matrix(read.csv(args[1], check.names = FALSE))
rm <- RM(X)
pp <- person.parameter(rm)
fit <- itemfit(pp)
out <- data.frame(
  item = colnames(X),
  infit = as.numeric(fit$i.infitMSQ),
  outfit = as.numeric(fit$i.outfitMSQ),
  z_infit = as.numeric(fit$i.infitZ),
  z_outfit = as.numeric(fit$i.outfitZ)
)
write.csv(out, args[2], row.names = FALSE)
cat(sprintf("eRm %s: %d persons x %d items\n", packageVersion("eRm"), nrow(X), ncol(X)))
