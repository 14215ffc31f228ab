/// "1 photo", "2 photos", "1 person", "3 people": a count with its noun in the right number, for
/// every sentence the front ends and `doctor` print ("(1 photos)", "1 recipes" were seen: issue 32).
public func counted(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(n) " + (n == 1 ? singular : plural ?? singular + "s")
}
