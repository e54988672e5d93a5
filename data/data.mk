# data.mk — rules for the guest programs (see data/README.md)
