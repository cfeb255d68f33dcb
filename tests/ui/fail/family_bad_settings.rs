use gpu_litmus::litmus_family;

litmus_family!(mod a = "MP", placements = "cta0_0");
litmus_family!(mod b = "MP", cycle = "PodWW Rfe DpAddrdR Fre");
litmus_family!(mod c = "MPP");
litmus_family!(mod d = "MP", colour = "red");

fn main() {}
