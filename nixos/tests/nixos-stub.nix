# The NixOS options that nixos/module.nix and the VM test's nodes write to, declared as free
# values: lib.evalModules then evaluates them with nixpkgs' `lib` alone (no nixpkgs, no NixOS),
# and the result is exactly what the modules set. Used by eval.nix and eval-vm.nix.
# Free values merge attribute sets, not lists: two modules defining the same list conflict.
{ lib }:

let
  freeform = lib.mkOption {
    type = lib.types.attrsOf lib.types.anything;
    default = { };
  };
in
{
  options = {
    systemd = freeform;
    users = freeform;
    environment = freeform;
    security = freeform;
    networking = freeform;
    assertions = lib.mkOption {
      type = lib.types.listOf lib.types.unspecified;
      default = [ ];
    };
    warnings = lib.mkOption {
      type = lib.types.listOf lib.types.str;
      default = [ ];
    };
  };
}
