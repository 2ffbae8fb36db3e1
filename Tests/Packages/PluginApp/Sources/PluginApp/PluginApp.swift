/// The app's code; its database rules are in database.rules.json beside Package.swift.
public enum PluginApp {
    public static let databasePath = "/users"
}
